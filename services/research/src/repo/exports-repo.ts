import type { CreditHold, Export } from '@vrs/contracts';
import { deleteInBatches, expiresAt, expiryIndex, findPage, type PageRequest, type Store, type StoreScope } from '@vrs/store';
import { newId } from '@vrs/kit';

export interface ExportDoc extends Omit<Export, 'id' | 'status'> {
  /** Stored `ready` once written, answered as `completed` (ADR 0092). */
  status: 'pending' | 'ready' | 'failed';
  _id: string;
  accountId: string;
  /** For the file name. */
  projectName: string;
  /** Chunks of the file, numbered from 0, once ready. */
  chunkCount?: number;
  /** Credits the gateway held for this export, settled once it is ready or failed (ADR 0019). */
  credits?: CreditHold;
}

/**
 * A piece of an export file. Files live in the store, not on a disk: the gateway that serves the
 * download may run on another machine, and MongoDB keeps them the way GridFS would, chunk by chunk.
 */
interface ExportChunkDoc {
  _id: string;
  exportId: string;
  seq: number;
  data: string;
  /** The file's expiry, set when it is complete: the retention sweeper deletes the chunk after it. */
  expiresAt?: string;
}

export interface ExportsRepoOptions {
  /** How long a written file can be downloaded (RESEARCH_EXPORT_TTL_MS). */
  fileTtlMs: number;
  /** Milliseconds since the epoch; tests inject one to move time. */
  clock: () => number;
}

/**
 * The export records are kept (a download after the file's expiry answers 410, not 404); only the
 * file's chunks carry `expiresAt` for the retention sweeper (ADR 0029).
 */
export function createExportsRepo(store: Store, { fileTtlMs, clock }: ExportsRepoOptions) {
  const exports = store.collection<ExportDoc>('exports');
  const chunks = store.collection<ExportChunkDoc>('export_chunks');
  const now = () => new Date(clock()).toISOString();

  return {
    /** What the retention sweeper prunes. */
    expiring: { export_chunks: chunks },

    ensureIndexes: () =>
      Promise.all([
        exports.createIndexes([{ key: { accountId: 1, createdAt: -1 }, name: 'account_newest_first' }]),
        chunks.createIndexes([{ key: { exportId: 1, seq: 1 }, name: 'export_seq_unique', unique: true }, expiryIndex]),
      ]),

    /** Whether a ready export's file has passed its expiry (deleted, or about to be). */
    isExpired: (record: ExportDoc) => record.expiresAt !== undefined && record.expiresAt <= now(),

    /** Through `tx` when given, so the export commits with what else that transaction writes (its outbox event). */
    async create(
      fields: Pick<ExportDoc, 'accountId' | 'projectId' | 'projectName' | 'format' | 'credits'>,
      tx?: StoreScope,
    ): Promise<ExportDoc> {
      const createdAt = now();
      const doc: ExportDoc = { _id: newId('exp'), ...fields, status: 'pending', createdAt, updatedAt: createdAt };
      await (tx ? tx.collection<ExportDoc>('exports') : exports).insertOne(doc);
      return doc;
    },

    findOwned: (accountId: string, exportId: string) => exports.findOne({ _id: exportId, accountId }),
    findById: (exportId: string) => exports.findOne({ _id: exportId }),

    /** A page of the account's exports, of one project when given, newest first (ADR 0020). */
    pageOwned: (accountId: string, projectId: string | undefined, page: PageRequest) =>
      findPage(exports, 'exports', projectId === undefined ? { accountId } : { accountId, projectId }, page),

    /** The credits still held by the project's exports whose file is not written yet. */
    async unsettledHoldsOfProject(projectId: string): Promise<CreditHold[]> {
      const pending = await exports.find({ projectId, status: 'pending' }, { projection: { credits: 1 } });
      return pending.flatMap((record) => (record.credits ? [record.credits] : []));
    },

    /** Removes the project's exports and their files; returns how many exports there were. */
    async deleteAllOfProject(projectId: string): Promise<number> {
      const ids = (await exports.find({ projectId }, { projection: { _id: 1 } })).map((doc) => doc._id);
      if (ids.length === 0) return 0;
      await chunks.deleteMany({ exportId: { $in: ids } });
      return (await exports.deleteMany({ projectId })).deletedCount;
    },

    /** Every export of a deleted account with its file, a batch of exports at a time (ADR 0033). */
    async deleteAllOfAccount(accountId: string, batchSize = 100): Promise<number> {
      let deleted = 0;
      for (;;) {
        const ids = (await exports.find({ accountId }, { limit: batchSize, projection: { _id: 1 } })).map((doc) => doc._id);
        if (ids.length === 0) return deleted;
        for (const exportId of ids) await deleteInBatches(chunks, { exportId });
        deleted += (await exports.deleteMany({ _id: { $in: ids } })).deletedCount;
      }
    },

    /** Forgets a half-written file (a writer that crashed): the rewrite starts from chunk 0. */
    clearChunks: async (exportId: string) => {
      await chunks.deleteMany({ exportId });
    },
    writeChunk: (exportId: string, seq: number, data: string) => chunks.insertOne({ _id: `${exportId}:${seq}`, exportId, seq, data }),
    readChunk: async (exportId: string, seq: number) => (await chunks.findOne({ _id: `${exportId}:${seq}` }))?.data,

    /**
     * The chunks get their expiry first: a crash before the record is ready leaves it pending, and the
     * redelivered event rewrites the file from chunk 0.
     */
    async markReady(exportId: string, figures: { itemCount: number; sizeBytes: number; chunkCount: number }): Promise<void> {
      const fileExpiresAt = expiresAt(clock(), fileTtlMs);
      await chunks.updateMany({ exportId }, { $set: { expiresAt: fileExpiresAt } });
      await exports.updateOne(
        { _id: exportId, status: 'pending' },
        { $set: { status: 'ready', ...figures, expiresAt: fileExpiresAt, updatedAt: now() } },
      );
    },
    async markFailed(exportId: string, error: string): Promise<void> {
      await exports.updateOne({ _id: exportId, status: 'pending' }, { $set: { status: 'failed', error, updatedAt: now() } });
    },
  };
}

export type ExportsRepo = ReturnType<typeof createExportsRepo>;
