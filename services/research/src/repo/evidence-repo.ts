import type { z } from 'zod';
import type { evidenceInputItemSchema, ProviderId } from '@vrs/contracts';
import { type Collection, DuplicateKeyError, deleteInBatches, findPage, type PageRequest, type Store, type StoreScope } from '@vrs/store';
import { newId, required, type TraceContext } from '@vrs/kit';

export type EvidenceInputItem = z.infer<typeof evidenceInputItemSchema>;
/** An item made by an import: it also names the platform it came from. */
export type ImportedEvidenceItem = EvidenceInputItem & { provider?: ProviderId };

export interface EvidenceDoc {
  _id: string;
  projectId: string;
  text: string;
  sourceKey?: string;
  entityId?: string;
  startMs?: number;
  provider?: ProviderId;
  createdAt: string;
  updatedAt: string;
  /** Set by the indexer: the document is searchable once this exists (see ADR 0003). Only grows. */
  indexedVersion?: number;
}

/** What a search index holds of a document: the searchable text and the fields a result shows. */
export type IndexableEvidence = Pick<EvidenceDoc, '_id' | 'text' | 'sourceKey' | 'entityId' | 'startMs' | 'provider'>;

const indexableProjection = { text: 1, sourceKey: 1, entityId: 1, startMs: 1, provider: 1 } as const;

/** Writes, inside the transaction that stores them, what announces the stored items. */
export type AnnounceEvidence = (tx: StoreScope, docs: EvidenceDoc[]) => Promise<void>;

/** Keys per `$in` read of known sourceKeys: a bounded statement whatever the size of an import. */
const sourceKeysPerRead = 500;

/** What posting an item sets on its document: its content, nothing of the bookkeeping. */
type EvidenceContent = Pick<EvidenceDoc, 'text' | 'updatedAt' | 'entityId' | 'startMs' | 'provider'>;

/** What posting an item sets on its document, and the optional fields it leaves out (removed). */
function contentUpdate(item: ImportedEvidenceItem, now: string): { $set: EvidenceContent; $unset: Record<string, ''> } {
  const $set: EvidenceContent = { text: item.text, updatedAt: now };
  const $unset: Record<string, ''> = {};
  for (const field of ['entityId', 'startMs', 'provider'] as const) {
    if (item[field] === undefined) $unset[field] = '';
    else Object.assign($set, { [field]: item[field] });
  }
  return { $set, $unset };
}

export function createEvidenceRepo(store: Store) {
  const evidence = store.collection<EvidenceDoc>('evidence');

  /**
   * The ids of the project's documents holding these sourceKeys, by sourceKey: one `$in` read per
   * slice of keys (an import may bring thousands) instead of one lookup per item.
   */
  async function idsBySourceKey(collection: Collection<EvidenceDoc>, projectId: string, keys: string[]): Promise<Map<string, string>> {
    const ids = new Map<string, string>();
    for (let start = 0; start < keys.length; start += sourceKeysPerRead) {
      const slice = keys.slice(start, start + sourceKeysPerRead);
      for (const doc of await collection.find({ projectId, sourceKey: { $in: slice } }, { projection: { sourceKey: 1 } }))
        ids.set(required(doc.sourceKey, `the source key of evidence ${doc._id}, found by its source key`), doc._id);
    }
    return ids;
  }

  /**
   * One request's items in one transaction: all or none, one commit. Posting a sourceKey again
   * replaces that item's content in place (id and createdAt stay; optional fields left out are
   * removed). `announce` records, in the same transaction, the event that tells the indexer (ADR 0030).
   */
  function addInTransaction(
    projectId: string,
    items: ImportedEvidenceItem[],
    announce: AnnounceEvidence,
    trace: TraceContext | undefined,
  ): Promise<EvidenceDoc[]> {
    const now = new Date().toISOString();
    const keys = [...new Set(items.flatMap((item) => (item.sourceKey === undefined ? [] : [item.sourceKey])))];
    return store.withTransaction(async (tx) => {
      const collection = tx.collection<EvidenceDoc>('evidence');
      const storedIds = keys.length > 0 ? await idsBySourceKey(collection, projectId, keys) : new Map<string, string>();
      const docs: EvidenceDoc[] = [];
      const fresh: EvidenceDoc[] = [];
      /** Where a new sourceKey's document waits in `fresh`, and its id: a later item with the same key replaces it. */
      const freshByKey = new Map<string, { index: number; id: string }>();
      for (const item of items) {
        const { sourceKey } = item;
        if (sourceKey === undefined) {
          const doc: EvidenceDoc = { _id: newId('ev'), projectId, ...item, createdAt: now, updatedAt: now };
          fresh.push(doc);
          docs.push(doc);
          continue;
        }
        const { $set, $unset } = contentUpdate(item, now);
        const storedId = storedIds.get(sourceKey);
        let doc: EvidenceDoc;
        if (storedId !== undefined) {
          const updated = await collection.findOneAndUpdate(
            { _id: storedId, projectId },
            { $set, ...(Object.keys($unset).length > 0 && { $unset }) },
            { returnDocument: 'after' },
          );
          if (!updated) throw new Error(`evidence ${storedId} (sourceKey ${sourceKey}) vanished during its update`);
          doc = updated;
        } else {
          // A key repeated within one call (imports dedupe, the API refuses) names one document: the later item's content wins.
          const waiting = freshByKey.get(sourceKey);
          doc = { _id: waiting?.id ?? newId('ev'), projectId, sourceKey, ...$set, createdAt: now };
          if (waiting === undefined) {
            freshByKey.set(sourceKey, { index: fresh.length, id: doc._id });
            fresh.push(doc);
          } else fresh[waiting.index] = doc;
        }
        docs.push(doc);
      }
      if (fresh.length > 0) await collection.insertMany(fresh);
      await announce(tx, docs);
      return docs;
    }, trace);
  }

  return {
    ensureIndexes: () =>
      evidence.createIndexes([
        {
          key: { projectId: 1, sourceKey: 1 },
          unique: true,
          name: 'project_source_key_unique',
          // Items without a sourceKey are not in the index, so any number of them may coexist.
          partialFilterExpression: { sourceKey: { $exists: true } },
        },
        { key: { projectId: 1, indexedVersion: 1 }, name: 'project_indexed_version' },
        { key: { projectId: 1, _id: 1 }, name: 'project_id_order' },
        { key: { projectId: 1, createdAt: -1, _id: -1 }, name: 'project_newest_first' },
      ]),

    /**
     * Stores items in request order; an item with a known sourceKey updates the existing document.
     * `trace` is the request's trace context (the transaction's span goes under it).
     */
    async add(projectId: string, items: ImportedEvidenceItem[], announce: AnnounceEvidence, trace?: TraceContext): Promise<EvidenceDoc[]> {
      try {
        return await addInTransaction(projectId, items, announce, trace);
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
        // A concurrent request inserted one of these sourceKeys first and ours rolled back: the retry
        // finds its document and updates it.
        return addInTransaction(projectId, items, announce, trace);
      }
    },

    /**
     * Marks documents indexed at `version`. `$max` keeps a mark from moving backwards when indexers
     * of different events overlap. Returns how many of the ids exist in the project.
     */
    async markIndexed(projectId: string, evidenceIds: string[], version: number): Promise<number> {
      const result = await evidence.updateMany({ projectId, _id: { $in: evidenceIds } }, { $max: { indexedVersion: version } });
      return result.matchedCount;
    },

    /** Marks every document of the project at `version` (a reindex); returns how many there are. */
    async markAllIndexed(projectId: string, version: number): Promise<number> {
      const result = await evidence.updateMany({ projectId }, { $max: { indexedVersion: version } });
      return result.matchedCount;
    },

    /** A page of the project's evidence, newest first (ADR 0020). */
    page: (projectId: string, page: PageRequest) => findPage(evidence, 'evidence', { projectId }, page),

    findInProject: (projectId: string, evidenceId: string) => evidence.findOne({ _id: evidenceId, projectId }),

    /**
     * Changes an item in place; `null` removes an optional field. Its id, sourceKey and createdAt stay.
     * Null when the project holds no such item.
     */
    async update(
      projectId: string,
      evidenceId: string,
      changes: { text?: string; entityId?: string | null; startMs?: number | null },
    ): Promise<EvidenceDoc | null> {
      const $set: Record<string, unknown> = { updatedAt: new Date().toISOString() };
      const $unset: Record<string, ''> = {};
      for (const [field, value] of Object.entries(changes)) {
        if (value === null) $unset[field] = '';
        else if (value !== undefined) $set[field] = value;
      }
      return evidence.findOneAndUpdate(
        { _id: evidenceId, projectId },
        { $set, ...(Object.keys($unset).length > 0 && { $unset }) },
        { returnDocument: 'after' },
      );
    },

    async deleteOne(projectId: string, evidenceId: string): Promise<boolean> {
      return (await evidence.deleteOne({ _id: evidenceId, projectId })).deletedCount === 1;
    },

    /**
     * Removes the project's items whose sourceKey starts with `prefix` but is not in `keep`: units a
     * source no longer has (a description re-imported into fewer chunks). Returns how many went.
     */
    async deleteStaleUnits(projectId: string, prefix: string, keep: string[]): Promise<number> {
      const startsWith = `^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
      return (await evidence.deleteMany({ projectId, sourceKey: { $regex: startsWith, $nin: keep } })).deletedCount;
    },

    /** Removes every item of the project, in batches (a project may hold many); returns how many there were. */
    deleteAll: (projectId: string): Promise<number> => deleteInBatches(evidence, { projectId }),

    /** One page of a project's evidence in id order, after `afterId`: exports walk a project with it. */
    pageInIdOrder: (projectId: string, afterId: string | undefined, limit: number): Promise<EvidenceDoc[]> =>
      evidence.find(afterId === undefined ? { projectId } : { projectId, _id: { $gt: afterId } }, { sort: { _id: 1 }, limit }),

    /**
     * One page, in id order after `afterId`, of the documents marked after `version` (all indexed
     * ones for 0): what a search index must (re)load to catch up with the project.
     */
    pageIndexedAfter: (projectId: string, version: number, afterId: string | undefined, limit: number): Promise<IndexableEvidence[]> =>
      evidence.find(
        afterId === undefined
          ? { projectId, indexedVersion: { $gt: version } }
          : { projectId, indexedVersion: { $gt: version }, _id: { $gt: afterId } },
        { sort: { _id: 1 }, limit, projection: indexableProjection },
      ),

    /** The given documents of the project that are marked indexed, by id (the indexer's own event). */
    findIndexable: (projectId: string, evidenceIds: string[]): Promise<IndexableEvidence[]> =>
      evidence.find({ projectId, _id: { $in: evidenceIds }, indexedVersion: { $exists: true } }, { projection: indexableProjection }),
  };
}

export type EvidenceRepo = ReturnType<typeof createEvidenceRepo>;
