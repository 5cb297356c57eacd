import { billingAccountDeleted } from '@vrs/contracts';
import { createAnnouncer, type Subscription } from '@vrs/bus';
import { componentLogger, createClock, type ServiceModule } from '@vrs/kit';
import { createRetentionSweeper, type Store } from '@vrs/store';
import { createDeleteAccountDataHandler } from './events/delete-account-data';
import { createPlansRepo } from './repo/plans-repo';
import { createSnapshotsRepo } from './repo/snapshots-repo';
import { createTrendsRouter, type TrendsRouter } from './router';
import type { TrendsDeps } from './trends-deps';

export type TrendsModuleOptions = Pick<TrendsDeps, 'bus' | 'logger' | 'provider' | 'llm' | 'config'> & { store: Store };

/** Durable consumer of `billing.account.deleted`: removes a deleted account's plans (ADR 0033). */
const accountDeletionConsumerName = 'trends-account-deletion';

export async function createTrendsModule(options: TrendsModuleOptions): Promise<ServiceModule<TrendsRouter>> {
  const { store, bus, logger, llm, config } = options;
  const snapshots = createSnapshotsRepo(store, { retentionDays: config.snapshotRetentionDays });
  const plans = createPlansRepo(store);
  const clock = createClock();
  const announcer = createAnnouncer(bus);
  // On the same clock as the reports, so a moved clock (tests) ages snapshots as reports see them.
  const sweeper = createRetentionSweeper({
    collections: snapshots.expiring,
    clock: () => clock.now().getTime(),
    intervalMs: config.retentionSweepIntervalMs ?? 60 * 60_000,
    logger: componentLogger(logger, 'trends-retention'),
  });
  let accountDeletion: Subscription | undefined;
  return {
    name: 'trends',
    router: createTrendsRouter({ ...options, snapshots, plans, announcer, clock }),
    async start() {
      await Promise.all([snapshots.ensureIndexes(), plans.ensureIndexes(), bus.ensureStreams(['trends'])]);
      sweeper.start();
      accountDeletion = await bus.subscribe(
        accountDeletionConsumerName,
        billingAccountDeleted,
        createDeleteAccountDataHandler({ plans, logger: componentLogger(logger, accountDeletionConsumerName) }),
      );
      logger.info({ models: llm?.models ?? [], clockControl: config.clockControl }, 'trends started');
    },
    // The store, bus and provider client belong to the host; trends' own are the sweeper, its consumer
    // and the reports' announcements still in flight (out before the host closes the bus).
    async stop() {
      await Promise.all([accountDeletion?.stop(), sweeper.stop(), announcer.settled()]);
      accountDeletion = undefined;
    },
  };
}
