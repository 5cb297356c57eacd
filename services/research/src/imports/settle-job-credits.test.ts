import { describe, expect, it } from 'vitest';
import type { BillingClient } from '../billing-client';
import type { JobDoc } from '../repo/jobs-repo';
import { settleJobCredits } from './settle-job-credits';

/** Billing's settle and refund, recording what they were asked. */
function recordingBilling() {
  const calls: unknown[] = [];
  const billing = {
    credits: {
      settle: { mutate: async (input: unknown) => calls.push(['settle', input]) },
      refund: { mutate: async (input: unknown) => calls.push(['refund', input]) },
    },
  } as unknown as BillingClient;
  return { billing, calls };
}

const job = (fields: Partial<JobDoc>): JobDoc =>
  ({ _id: 'job_1', status: 'completed', videos: [], credits: { reservationId: 'res_1', amount: 5 }, ...fields }) as JobDoc;

describe('settling the credits held for an import job (ADR 0019)', () => {
  it('charges the full hold when anything was imported, even if other videos failed', async () => {
    const { billing, calls } = recordingBilling();
    const partial = job({
      videos: [
        { videoId: 'a', status: 'failed', evidenceCount: 0 },
        { videoId: 'b', status: 'imported', evidenceCount: 3 },
      ],
    });
    expect(await settleJobCredits(billing, partial)).toBe('settled');
    expect(calls).toEqual([['settle', { reservationId: 'res_1', amount: 5 }]]);
  });

  it('refunds a job that imported nothing: all failed, nothing resolved, or cancelled before any video', async () => {
    for (const ended of [
      job({ status: 'failed', videos: [{ videoId: 'a', status: 'failed', evidenceCount: 0 }] }),
      job({ status: 'completed', videos: [] }),
      job({ status: 'cancelled', videos: [] }),
    ]) {
      const { billing, calls } = recordingBilling();
      expect(await settleJobCredits(billing, ended)).toBe('refunded');
      expect(calls).toEqual([['refund', { reservationId: 'res_1' }]]);
    }
  });

  it('leaves a running job, and a job without a hold, alone', async () => {
    const { billing, calls } = recordingBilling();
    expect(await settleJobCredits(billing, job({ status: 'running' }))).toBeUndefined();
    expect(await settleJobCredits(billing, job({ credits: undefined }))).toBeUndefined();
    expect(calls).toEqual([]);
  });
});
