import { currentStateName, type Export } from '@vrs/contracts';
import type { ExportDoc } from '../../repo/exports-repo';

/** The public record: the owner and the file's storage details stay inside the service. */
export function toExport({
  _id,
  accountId: _accountId,
  projectName: _projectName,
  chunkCount: _chunkCount,
  status,
  ...record
}: ExportDoc): Export {
  return { id: _id, status: currentStateName(status), ...record };
}
