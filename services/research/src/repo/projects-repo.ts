import type { Store } from '@vrs/store';
import { newUuid } from '@vrs/kit';

export interface ProjectDoc {
  _id: string;
  accountId: string;
  name: string;
  createdAt: string;
  /**
   * The highest index version whose evidence is guaranteed marked (see `advanceIndexVersion`).
   * Search caches compare themselves against it; it only ever grows.
   */
  indexVersion: number;
}

export interface ProjectPage {
  projects: ProjectDoc[];
  hasMore: boolean;
}

export function createProjectsRepo(store: Store) {
  const projects = store.collection<ProjectDoc>('projects');

  return {
    ensureIndexes: () => projects.createIndexes([{ key: { accountId: 1, createdAt: -1, _id: -1 }, name: 'account_newest_first' }]),

    async create(accountId: string, name: string): Promise<ProjectDoc> {
      const project: ProjectDoc = { _id: newUuid(), accountId, name, createdAt: new Date().toISOString(), indexVersion: 0 };
      await projects.insertOne(project);
      return project;
    },

    /** Found only for its owner: another account's project and an unknown one look the same. */
    findOwned: (accountId: string, projectId: string) => projects.findOne({ _id: projectId, accountId }),

    findById: (projectId: string) => projects.findOne({ _id: projectId }),

    /** Every project's id, oldest first: what an operator's full reindex walks. */
    async allIds(): Promise<string[]> {
      const docs = await projects.find({}, { sort: { createdAt: 1, _id: 1 }, projection: { _id: 1 } });
      return docs.map((doc) => doc._id);
    },

    /**
     * Newest first. `(createdAt, _id)` is the sort key, so projects created in the same millisecond
     * still page without skipping or repeating; `after` is the last project of the previous page.
     */
    async listOwned(accountId: string, limit: number, after?: ProjectDoc): Promise<ProjectPage> {
      const filter = after
        ? {
            accountId,
            $or: [{ createdAt: { $lt: after.createdAt } }, { createdAt: after.createdAt, _id: { $lt: after._id } }],
          }
        : { accountId };
      // One extra document answers `hasMore` without a count.
      const page = await projects.find(filter, { sort: { createdAt: -1, _id: -1 }, limit: limit + 1 });
      return { projects: page.slice(0, limit), hasMore: page.length > limit };
    },

    /**
     * Compare-and-set: moves the version from `from` to `from + 1` only if nobody moved it since it
     * was read. False means another indexer won that version and the caller must retry with a new one.
     */
    async advanceIndexVersion(projectId: string, from: number): Promise<boolean> {
      const result = await projects.updateOne({ _id: projectId, indexVersion: from }, { $set: { indexVersion: from + 1 } });
      return result.modifiedCount === 1;
    },
  };
}

export type ProjectsRepo = ReturnType<typeof createProjectsRepo>;
