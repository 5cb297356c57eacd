import { billingAccountDeleted, monitoringCheckCompleted, monitoringNotificationCreated } from '@vrs/contracts';
import { createOutboxRelay, type EventBus, type Subscription } from '@vrs/bus';
import { componentLogger, type ControllableClock, createClock, type Logger, readAtScrape, type ServiceModule } from '@vrs/kit';
import { createRetentionSweeper, type Store } from '@vrs/store';
import { createDeleteAccountDataHandler } from './events/delete-account-data';
import type { MonitoringModuleConfig, MonitoringUpstreams } from './monitoring-deps';
import { createMonitoringRepos } from './repo';
import { createMonitoringRouter, type MonitoringRouter } from './router';
import { createScheduler } from './scheduler/scheduler';

export interface MonitoringModuleOptions extends MonitoringUpstreams {
  store: Store;
  bus: EventBus;
  logger: Logger;
  config: MonitoringModuleConfig;
  /** Tests hand in a clock of their own; otherwise the module has one (movable only with clockControl). */
  clock?: ControllableClock;
  /** Pause before the outbox relay tries a failed publish again; 1 s unless given. */
  outboxRetryDelayMs?: number;
}

/** How often sent outbox rows past their day are deleted. */
const retentionSweepMs = 10 * 60_000;

/** Durable consumer of `billing.account.deleted`: removes a deleted account's monitoring data (ADR 0033). */
const accountDeletionConsumerName = 'monitoring-account-deletion';

export async function createMonitoringModule(options: MonitoringModuleOptions): Promise<ServiceModule<MonitoringRouter>> {
  const { store, bus, logger, config, provider, trends, billing } = options;
  const repos = createMonitoringRepos(store);
  const clock = options.clock ?? createClock();
  // Notifications and checks are announced through the outbox: written with them, published after (ADR 0030).
  const outbox = createOutboxRelay({
    store,
    bus,
    definitions: [monitoringNotificationCreated, monitoringCheckCompleted],
    logger: componentLogger(logger, 'monitoring-outbox'),
    retryDelayMs: options.outboxRetryDelayMs,
  });
  const retention = createRetentionSweeper({
    collections: outbox.expiring,
    clock: Date.now,
    intervalMs: retentionSweepMs,
    logger: componentLogger(logger, 'monitoring-retention'),
  });
  const checkDeps = { ...repos, store, outbox, clock, logger, config, provider, trends, billing };
  const scheduler = createScheduler(checkDeps);
  let accountDeletion: Subscription | undefined;
  let stopMetrics = () => {};
  return {
    name: 'monitoring',
    router: createMonitoringRouter({ ...checkDeps, scheduler }),
    async start() {
      await Promise.all([...Object.values(repos).map((repo) => repo.ensureIndexes()), bus.ensureStreams(['monitoring'])]);
      await outbox.start();
      retention.start();
      scheduler.start();
      stopMetrics = readAtScrape(
        { name: 'vrs_monitors_due', help: 'Enabled monitors whose check is due now (a backlog grows here).' },
        async () => [{ value: await repos.monitors.countDue(clock.now().getTime()) }],
      );
      accountDeletion = await bus.subscribe(
        accountDeletionConsumerName,
        billingAccountDeleted,
        createDeleteAccountDataHandler({ ...checkDeps, logger: componentLogger(logger, accountDeletionConsumerName) }),
      );
      logger.info({ tickMs: config.tickMs, concurrency: config.concurrency, clockControl: config.clockControl }, 'monitoring started');
    },
    // The store, bus and clients belong to the host; checks in flight finish first.
    async stop() {
      stopMetrics();
      await Promise.all([accountDeletion?.stop(), scheduler.stop()]);
      await Promise.all([outbox.stop(), retention.stop()]);
      accountDeletion = undefined;
    },
  };
}
