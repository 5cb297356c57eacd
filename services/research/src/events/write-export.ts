import type { researchExportRequested } from '@vrs/contracts';
import type { EventHandler } from '@vrs/bus';
import { forRequest, type Logger, requestLogFields } from '@vrs/kit';
import type { BillingClient } from '../billing-client';
import { settleExportCredits } from '../credits/settle-held-credits';
import { exportFormatters } from '../exports/export-formats';
import type { EvidenceRepo } from '../repo/evidence-repo';
import type { ExportsRepo } from '../repo/exports-repo';

export interface WriteExportDeps {
  exports: ExportsRepo;
  evidence: EvidenceRepo;
  /** Settles the credits held for an export once it is ready or failed. */
  billing: BillingClient;
  logger: Logger;
  /** Evidence read per store query. */
  pageSize?: number;
  /** A chunk is stored once it holds this many characters (well under MongoDB's 16 MB document limit). */
  chunkChars?: number;
}

/**
 * Writes an export's file into the store, a page of evidence and a chunk at a time, so neither the
 * project nor the file is ever held in memory whole. A redelivered event (the writer crashed)
 * clears what was written and starts again; a ready or failed export is left alone.
 */
export function createWriteExportHandler(deps: WriteExportDeps): EventHandler<typeof researchExportRequested> {
  const { exports } = deps;
  return async ({ data }, context) => {
    // The export's log lines and its settlement carry the id of the request that asked for it.
    const logger = deps.logger.child(requestLogFields(context));
    await writeExport({ ...deps, logger })(data.exportId);
    // Ready or failed, here or on an earlier delivery whose settle was lost.
    const ended = await exports.findById(data.exportId);
    if (!ended) return;
    const outcome = await settleExportCredits(forRequest(deps.billing, context), ended);
    if (outcome)
      logger.info({ exportId: ended._id, credits: outcome, reservationId: ended.credits?.reservationId }, 'export credits settled');
  };
}

function writeExport(deps: WriteExportDeps) {
  const { exports, evidence, logger, pageSize = 500, chunkChars = 256 * 1024 } = deps;
  return async (exportId: string) => {
    const record = await exports.findById(exportId);
    if (record?.status !== 'pending') return;
    const formatter = exportFormatters[record.format];
    await exports.clearChunks(record._id);
    let buffer = formatter.head({ projectId: record.projectId, projectName: record.projectName, exportedAt: new Date().toISOString() });
    let seq = 0;
    let sizeBytes = 0;
    let itemCount = 0;
    const flush = async () => {
      await exports.writeChunk(record._id, seq++, buffer);
      sizeBytes += Buffer.byteLength(buffer);
      buffer = '';
    };
    try {
      let after: string | undefined;
      for (;;) {
        const page = await evidence.pageInIdOrder(record.projectId, after, pageSize);
        const last = page.at(-1);
        if (last === undefined) break;
        for (const doc of page) buffer += formatter.item(doc, itemCount++);
        after = last._id;
        if (buffer.length >= chunkChars) await flush();
      }
      buffer += formatter.tail(itemCount);
      await flush();
    } catch (error) {
      logger.error({ err: error, exportId: record._id }, 'export failed');
      await exports.markFailed(record._id, 'The export could not be written; create a new one.');
      return;
    }
    await exports.markReady(record._id, { itemCount, sizeBytes, chunkCount: seq });
    logger.info({ exportId: record._id, itemCount, sizeBytes, chunks: seq }, 'export written');
  };
}
