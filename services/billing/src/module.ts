import type { EventBus } from '@vrs/bus';
import type { Logger, ServiceModule } from '@vrs/kit';
import type { Store } from '@vrs/store';
import { planCatalogue } from '@vrs/contracts';
import type { BillingModuleConfig } from './billing-deps';
import { createExpirySweeper } from './holds/expiry-sweeper';
import { createBillingRepo } from './repo';
import { createRenewalSweeper } from './subscriptions/renewal-sweeper';
import { billingRouter, type BillingRouter } from './router';

export interface BillingModuleOptions {
  store: Store;
  /** Every module is handed the same dependencies; billing publishes and consumes no events yet. */
  bus: EventBus;
  logger: Logger;
  config: BillingModuleConfig;
  /** Milliseconds since the epoch; tests inject one to move time. */
  clock?: () => number;
}

export async function createBillingModule({
  store,
  logger,
  config,
  clock = Date.now,
}: BillingModuleOptions): Promise<ServiceModule<BillingRouter>> {
  const plans = config.plans ?? planCatalogue();
  const repo = createBillingRepo(store, { clock, reservationTtlMs: config.reservationTtlMs, plans });
  const sweeper = createExpirySweeper({ repo, clock, intervalMs: config.sweepIntervalMs, logger });
  const renewals = createRenewalSweeper({ repo, clock, intervalMs: config.sweepIntervalMs, logger });
  return {
    name: 'billing',
    router: billingRouter({ repo, config, plans, logger }),
    async start() {
      // The demoUser and key-hash unique indexes are what make ensureDemo and key lookups correct,
      // so no request may be served before they exist.
      await repo.createIndexes();
      sweeper.start();
      renewals.start();
      logger.info(
        { startingCredits: config.startingCredits, reservationTtlMs: config.reservationTtlMs, sweepIntervalMs: config.sweepIntervalMs },
        'billing started',
      );
    },
    // The store and bus belong to the host, which closes them; billing's own are the sweepers.
    async stop() {
      await Promise.all([sweeper.stop(), renewals.stop()]);
    },
  };
}
