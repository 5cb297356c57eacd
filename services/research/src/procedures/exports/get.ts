import { exportRefInputSchema, type Export } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { ResearchDeps } from '../../research-deps';
import { toExport } from './to-export';

/**
 * The export record, plus what a download needs to name and serve the file (the project's name and
 * the file's chunk count, and whether it has expired, by this service's clock). Another account's export
 * answers like an unknown one.
 */
export const getExport = ({ exports }: ResearchDeps) =>
  procedure
    .input(exportRefInputSchema)
    .query(async ({ input }): Promise<{ export: Export; projectName: string; chunkCount: number; expired: boolean }> => {
      const record = await exports.findOwned(input.accountId, input.exportId);
      if (!record) throw new AppError('EXPORT_NOT_FOUND');
      return {
        export: toExport(record),
        projectName: record.projectName,
        chunkCount: record.chunkCount ?? 0,
        expired: exports.isExpired(record),
      };
    });
