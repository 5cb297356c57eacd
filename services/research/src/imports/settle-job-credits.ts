import type { BillingClient } from '../billing-client';
import { activeJobStatuses, type JobDoc } from '../repo/jobs-repo';

/**
 * Settles the credits held for a job once it has ended (ADR 0019): the full hold when at least one
 * video was imported (partial success costs the full price), a refund when nothing was (every
 * video failed, the source could not be read, it named no videos, or the job was cancelled
 * first). Billing's settle and refund are idempotent, and the outcome of an ended job never
 * changes, so this is safe to repeat: a redelivered event settles a job whose settle was lost.
 */
export async function settleJobCredits(billing: BillingClient, job: JobDoc): Promise<'settled' | 'refunded' | undefined> {
  if (!job.credits || activeJobStatuses.includes(job.status)) return undefined;
  const { reservationId, amount } = job.credits;
  if (job.videos.some((video) => video.status === 'imported')) {
    await billing.credits.settle.mutate({ reservationId, amount });
    return 'settled';
  }
  await billing.credits.refund.mutate({ reservationId });
  return 'refunded';
}
