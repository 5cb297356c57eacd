import { exportChunkInputSchema } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { ResearchDeps } from '../../research-deps';

/** One piece of a ready export's file, for the download to stream in order; 410 once the file has expired. */
export const readExportChunk = ({ exports }: ResearchDeps) =>
  procedure.input(exportChunkInputSchema).query(async ({ input }): Promise<{ data: string }> => {
    const record = await exports.findOwned(input.accountId, input.exportId);
    if (!record) throw new AppError('EXPORT_NOT_FOUND');
    if (record.status !== 'ready') throw new AppError('EXPORT_NOT_READY', undefined, { status: record.status });
    if (exports.isExpired(record)) throw new AppError('EXPORT_EXPIRED', undefined, { expiresAt: record.expiresAt });
    const data = await exports.readChunk(record._id, input.seq);
    if (data === undefined) throw new AppError('NOT_FOUND', `Export ${record._id} has no chunk ${input.seq}.`);
    return { data };
  });
