import type { CreditHold } from '@vrs/contracts';
import type { BillingClient } from '../billing-client';
import type { ExportDoc } from '../repo/exports-repo';
import { activeJobStatuses, type JobDoc } from '../repo/jobs-repo';

/**
 * Settles the credits the gateway held for work that finished later (ADR 0019): the full hold when
 * it delivered something, else a refund. Both are idempotent and ended work's outcome never changes,
 * so a redelivered event settles work whose settle was lost.
 */
async function settleHeldCredits(billing: BillingClient, hold: CreditHold, delivered: boolean): Promise<'settled' | 'refunded'> {
  if (delivered) {
    await billing.credits.settle.mutate({ reservationId: hold.reservationId, amount: hold.amount });
    return 'settled';
  }
  await billing.credits.refund.mutate({ reservationId: hold.reservationId });
  return 'refunded';
}

/**
 * An import job, once ended: charged in full when at least one video was imported (partial success
 * costs the full price), refunded when none was (every video failed, the source could not be read,
 * it named no videos, or the job was cancelled first).
 */
export async function settleJobCredits(billing: BillingClient, job: JobDoc): Promise<'settled' | 'refunded' | undefined> {
  if (!job.credits || activeJobStatuses.includes(job.status)) return undefined;
  return settleHeldCredits(
    billing,
    job.credits,
    job.videos.some((video) => video.status === 'imported'),
  );
}

/** An export, once written or failed: charged when its file is ready, refunded when it failed. */
export async function settleExportCredits(billing: BillingClient, record: ExportDoc): Promise<'settled' | 'refunded' | undefined> {
  if (!record.credits || record.status === 'pending') return undefined;
  return settleHeldCredits(billing, record.credits, record.status === 'ready');
}
