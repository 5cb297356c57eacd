import { currentStateName, type Job } from '@vrs/contracts';
import { activeJobStatuses, type JobDoc } from '../../repo/jobs-repo';

/** The public shape: the owner and the resolved video list stay inside the service. */
export function toJob({ _id, accountId: _accountId, videoIds: _videoIds, status, credits, ...job }: JobDoc): Job {
  const held = credits && activeJobStatuses.includes(status) ? { creditsHeld: credits.amount } : {};
  return { id: _id, status: currentStateName(status), ...held, ...job };
}
