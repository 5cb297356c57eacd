import { createPeriodicSweep, type Logger } from '@vrs/kit';
import { DuplicateKeyError } from '@vrs/store';
import type { BillingRepo } from '../repo';

/** Accounts renewed per store read; a sweep reads again while a whole batch was renewed. */
const BATCH = 100;

/**
 * Renews the accounts whose billing period has ended (`BillingRepo.renew`, ADR 0032), once at start
 * (periods that ended while billing was down) and then every `intervalMs`. Any number of these may
 * run at once, in one process or several: `renew` lets one renewal of a period through.
 */
export function createRenewalSweeper(options: { repo: BillingRepo; clock: () => number; intervalMs: number; logger: Logger }) {
  const { repo, clock, intervalMs, logger } = options;

  /** One sweep; resolves with how many accounts this sweep renewed. */
  async function sweepOnce(): Promise<number> {
    let renewed = 0;
    for (;;) {
      const due = await repo.accounts.dueForRenewal(new Date(clock()).toISOString(), BATCH);
      let batchRenewed = 0;
      for (const account of due) {
        try {
          const outcome = await repo.renew(account._id);
          if (outcome.kind === 'renewed') {
            batchRenewed++;
            logger.info({ accountId: account._id, ...outcome }, 'billing period renewed');
          }
        } catch (err) {
          // Another renewal of the same period wrote its grant line first: it is renewed.
          if (!(err instanceof DuplicateKeyError)) logger.error({ err, accountId: account._id }, 'could not renew billing period');
        }
      }
      renewed += batchRenewed;
      if (due.length < BATCH || batchRenewed === 0) break;
    }
    return renewed;
  }

  return createPeriodicSweep({ name: 'renewal sweep', intervalMs, logger, sweep: sweepOnce });
}
