import type { Job } from '@vrs/contracts';
import type { JobDoc } from '../../repo/jobs-repo';

/** The public shape: the owner and the resolved video list stay inside the service. */
export function toJob({ _id, accountId: _accountId, videoIds: _videoIds, ...job }: JobDoc): Job {
  return { id: _id, ...job };
}
