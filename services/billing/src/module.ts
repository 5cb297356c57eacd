import { componentLogger, type Logger, readAtScrape, type ServiceModule } from '@vrs/kit';
import { billingAccountDeleted, planCatalogue } from '@vrs/contracts';
import { createOutboxRelay, type EventBus, type Subscription } from '@vrs/bus';
import { createRetentionSweeper, type Store } from '@vrs/store';
import type { BillingModuleConfig } from './billing-deps';
import { createDeleteAccountDataHandler } from './events/delete-account-data';
import { createExpirySweeper } from './holds/expiry-sweeper';
import { createBillingRepo } from './repo';
import { createRenewalSweeper } from './subscriptions/renewal-sweeper';
import { billingRouter, type BillingRouter } from './router';

export interface BillingModuleOptions {
  store: Store;
  /** Publishes `billing.account.deleted` (through the outbox) and consumes it for billing's own part. */
  bus: EventBus;
  logger: Logger;
  config: BillingModuleConfig;
  /** Milliseconds since the epoch; tests inject one to move time. */
  clock?: () => number;
}

/** Durable consumer of `billing.account.deleted`: billing's share of removing a deleted account's data. */
const accountDeletionConsumerName = 'billing-account-deletion';

export async function createBillingModule({
  store,
  bus,
  logger,
  config,
  clock = Date.now,
}: BillingModuleOptions): Promise<ServiceModule<BillingRouter>> {
  const plans = config.plans ?? planCatalogue();
  const repo = createBillingRepo(store, { clock, reservationTtlMs: config.reservationTtlMs, plans });
  const sweeper = createExpirySweeper({ repo, clock, intervalMs: config.sweepIntervalMs, logger });
  const renewals = createRenewalSweeper({ repo, clock, intervalMs: config.sweepIntervalMs, logger });
  const outbox = createOutboxRelay({
    store,
    bus,
    definitions: [billingAccountDeleted],
    logger: componentLogger(logger, 'billing-outbox'),
    clock,
  });
  // Sent outbox rows expire after a day (the relay's default); this deletes them.
  const retention = createRetentionSweeper({
    collections: outbox.expiring,
    clock,
    intervalMs: config.sweepIntervalMs,
    logger: componentLogger(logger, 'billing-retention'),
  });
  let accountDeletion: Subscription | undefined;
  let stopMetrics = () => {};
  return {
    name: 'billing',
    router: billingRouter({ repo, config, plans, logger, outbox }),
    async start() {
      // The demoUser and key-hash unique indexes are what make ensureDemo and key lookups correct,
      // so no request may be served before they exist.
      await Promise.all([repo.createIndexes(), bus.ensureStreams(['billing'])]);
      sweeper.start();
      renewals.start();
      retention.start();
      stopMetrics = readAtScrape(
        {
          name: 'vrs_credit_reservations_outstanding',
          help: 'Credit reservations still holding credits (not settled, refunded or expired).',
        },
        async () => [{ value: await repo.reservations.countOpen() }],
      );
      // Publishes deletions recorded before a crash or while NATS was away, then each new one.
      await outbox.start();
      accountDeletion = await bus.subscribe(
        accountDeletionConsumerName,
        billingAccountDeleted,
        createDeleteAccountDataHandler({ repo, store, logger: componentLogger(logger, accountDeletionConsumerName) }),
      );
      logger.info(
        { startingCredits: config.startingCredits, reservationTtlMs: config.reservationTtlMs, sweepIntervalMs: config.sweepIntervalMs },
        'billing started',
      );
    },
    // The store and bus belong to the host, which closes them; billing's own are the sweepers, relay and consumer.
    async stop() {
      stopMetrics();
      await Promise.all([accountDeletion?.stop(), sweeper.stop(), renewals.stop(), retention.stop(), outbox.stop()]);
      accountDeletion = undefined;
    },
  };
}
