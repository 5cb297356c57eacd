import { findPage, type PageRequest, type Store } from '@vrs/store';
import { createEntryLruCache, newUuid } from '@vrs/kit';

export interface ProjectDoc {
  _id: string;
  accountId: string;
  name: string;
  createdAt: string;
  /** Absent on projects saved before ADR 0092: read as `createdAt`. */
  updatedAt?: string;
  /**
   * The highest index version whose evidence is guaranteed marked (see `advanceIndexVersion`).
   * Search caches compare themselves against it; it only ever grows.
   */
  indexVersion: number;
  /**
   * The index version at which evidence was last removed. Marks cannot say "gone", so a cached index
   * built before this version is dropped and rebuilt from the store instead of brought up to date.
   */
  indexResetVersion?: number;
}

export function createProjectsRepo(store: Store) {
  const projects = store.collection<ProjectDoc>('projects');
  /** What `findOwned` answered, by account and project, with the store's write stamp it read it at. */
  const ownedReads = createEntryLruCache<string, { stamp: number; project: Readonly<ProjectDoc> | null }>({ maxEntries: 10_000 });

  return {
    ensureIndexes: () => projects.createIndexes([{ key: { accountId: 1, createdAt: -1, _id: -1 }, name: 'account_newest_first' }]),

    async create(accountId: string, name: string): Promise<ProjectDoc> {
      const now = new Date().toISOString();
      const project: ProjectDoc = { _id: newUuid(), accountId, name, createdAt: now, updatedAt: now, indexVersion: 0 };
      await projects.insertOne(project);
      return project;
    },

    /**
     * Found only for its owner: another account's project and an unknown one look the same. Every
     * search and most project calls ask it first, so while the store has had no write since the last
     * read of the same project (its `writeStamp`), that read answers, frozen (ADR 0059).
     */
    async findOwned(accountId: string, projectId: string): Promise<Readonly<ProjectDoc> | null> {
      const stamp = store.writeStamp();
      const key = `${accountId}\n${projectId}`;
      const read = stamp === undefined ? undefined : ownedReads.get(key);
      if (read && read.stamp === stamp) return read.project;
      const found = await projects.findOne({ _id: projectId, accountId });
      const project = found && Object.freeze(found);
      if (stamp !== undefined) ownedReads.set(key, { stamp, project });
      return project;
    },

    findById: (projectId: string) => projects.findOne({ _id: projectId }),

    rename: (accountId: string, projectId: string, name: string) =>
      projects.findOneAndUpdate(
        { _id: projectId, accountId },
        { $set: { name, updatedAt: new Date().toISOString() } },
        { returnDocument: 'after' },
      ),

    async deleteOwned(accountId: string, projectId: string): Promise<boolean> {
      return (await projects.deleteOne({ _id: projectId, accountId })).deletedCount === 1;
    },

    /** Up to `limit` of the account's project ids: what an account's deletion walks, a batch at a time. */
    async idsOfAccount(accountId: string, limit: number): Promise<string[]> {
      const docs = await projects.find({ accountId }, { limit, projection: { _id: 1 } });
      return docs.map((doc) => doc._id);
    },

    /** Every project's id, oldest first: what an operator's full reindex walks. */
    async allIds(): Promise<string[]> {
      const docs = await projects.find({}, { sort: { createdAt: 1, _id: 1 }, projection: { _id: 1 } });
      return docs.map((doc) => doc._id);
    },

    /** Newest first (ADR 0020). */
    listOwned: (accountId: string, page: PageRequest) => findPage(projects, 'projects', { accountId }, page),

    /**
     * Compare-and-set: moves the version from `from` to `from + 1` only if nobody moved it since it
     * was read. False means another indexer won that version and the caller must retry with a new one.
     * `reset` (evidence was removed) also makes caches built before the new version rebuild.
     */
    async advanceIndexVersion(projectId: string, from: number, options: { reset?: boolean } = {}): Promise<boolean> {
      const $set = options.reset ? { indexVersion: from + 1, indexResetVersion: from + 1 } : { indexVersion: from + 1 };
      const result = await projects.updateOne({ _id: projectId, indexVersion: from }, { $set });
      return result.modifiedCount === 1;
    },
  };
}

export type ProjectsRepo = ReturnType<typeof createProjectsRepo>;
