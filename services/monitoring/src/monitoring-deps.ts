import type { TRPCClient } from '@trpc/client';
import type { BillingRouter } from '@vrs/billing';
import type { OutboxRelay } from '@vrs/bus';
import type { ControllableClock, Logger } from '@vrs/kit';
import type { ProviderRouter } from '@vrs/provider';
import type { Store } from '@vrs/store';
import type { TrendsRouter } from '@vrs/trends';
import type { monitoringModuleConfigOf } from './config';
import type { ChecksRepo } from './repo/checks-repo';
import type { DeliveriesRepo } from './repo/deliveries-repo';
import type { DigestPreferencesRepo } from './repo/digest-preferences-repo';
import type { WebhooksRepo } from './repo/webhooks-repo';
import type { MonitorsRepo } from './repo/monitors-repo';
import type { NotificationsRepo } from './repo/notifications-repo';

export type MonitoringModuleConfig = ReturnType<typeof monitoringModuleConfigOf>;

/** The services a check calls, through their typed clients (in-process or over HTTP). */
export interface MonitoringUpstreams {
  provider: TRPCClient<ProviderRouter>;
  trends: TRPCClient<TrendsRouter>;
  billing: TRPCClient<BillingRouter>;
}

/** What a check is run with. */
export interface CheckDeps extends MonitoringUpstreams {
  monitors: MonitorsRepo;
  checks: ChecksRepo;
  notifications: NotificationsRepo;
  digestPreferences: DigestPreferencesRepo;
  webhooks: WebhooksRepo;
  deliveries: DeliveriesRepo;
  /** For the transactions that write a change with its outbox event. */
  store: Store;
  /** Publishes what those transactions recorded (ADR 0030). */
  outbox: OutboxRelay;
  clock: ControllableClock;
  logger: Logger;
  config: MonitoringModuleConfig;
}

export interface SchedulerHandle {
  /** Starts a pass soon (a forced check); never waits for it. */
  wake(): void;
  /** Waits for any pass in flight, then runs one and returns the ids of the checks it ran (digests are not counted). */
  runDue(): Promise<string[]>;
}

/** What every monitoring procedure is built with. */
export interface MonitoringDeps extends CheckDeps {
  scheduler: SchedulerHandle;
}
