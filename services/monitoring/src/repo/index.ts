import type { Store } from '@vrs/store';
import { createChecksRepo } from './checks-repo';
import { createDeliveriesRepo } from './deliveries-repo';
import { createDigestPreferencesRepo } from './digest-preferences-repo';
import { createMonitorsRepo } from './monitors-repo';
import { createNotificationsRepo } from './notifications-repo';
import { createWebhooksRepo } from './webhooks-repo';

/** Every monitoring repository over one store. */
export function createMonitoringRepos(store: Store) {
  return {
    monitors: createMonitorsRepo(store),
    checks: createChecksRepo(store),
    notifications: createNotificationsRepo(store),
    digestPreferences: createDigestPreferencesRepo(store),
    webhooks: createWebhooksRepo(store),
    deliveries: createDeliveriesRepo(store),
  };
}
