import { describe, expect, it } from 'vitest';
import type { BillingClient } from '../billing-client';
import type { JobDoc } from '../repo/jobs-repo';
import type { ExportDoc } from '../repo/exports-repo';
import { settleExportCredits, settleJobCredits } from './settle-held-credits';

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

describe('settling the credits held for an import job or an export (ADR 0019)', () => {
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

  it('charges an export whose file is ready, refunds one that failed, and leaves a pending one alone', async () => {
    const hold = { reservationId: 'res_2', amount: 2 };
    const outcomes: [ExportDoc['status'], unknown][] = [
      ['ready', ['settle', { reservationId: 'res_2', amount: 2 }]],
      ['failed', ['refund', { reservationId: 'res_2' }]],
    ];
    for (const [status, call] of outcomes) {
      const { billing, calls } = recordingBilling();
      await settleExportCredits(billing, { _id: 'exp_1', status, credits: hold } as ExportDoc);
      expect(calls).toEqual([call]);
    }
    const { billing, calls } = recordingBilling();
    expect(await settleExportCredits(billing, { _id: 'exp_1', status: 'pending', credits: hold } as ExportDoc)).toBeUndefined();
    expect(calls).toEqual([]);
  });
});
