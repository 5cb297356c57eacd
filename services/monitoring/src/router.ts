import { router } from '@vrs/kit';
import type { MonitoringDeps } from './monitoring-deps';
import { setClock } from './procedures/clock/set';
import { getDigestPreferences } from './procedures/digests/get';
import { putDigestPreferences } from './procedures/digests/put';
import { checkHealth } from './procedures/health/check';
import { checkMonitor } from './procedures/monitors/check';
import { createMonitor } from './procedures/monitors/create';
import { deleteMonitor } from './procedures/monitors/delete';
import { getMonitor } from './procedures/monitors/get';
import { listMonitors } from './procedures/monitors/list';
import { listMonitorChecks } from './procedures/monitors/list-checks';
import { updateMonitor } from './procedures/monitors/update';
import { listNotifications } from './procedures/notifications/list';
import { markNotificationRead } from './procedures/notifications/mark-read';
import { runDue } from './procedures/scheduler/run-due';
import { createWebhook } from './procedures/webhooks/create';
import { deleteWebhook } from './procedures/webhooks/delete';
import { listWebhooks } from './procedures/webhooks/list';
import { listWebhookDeliveries } from './procedures/webhooks/list-deliveries';

/** Internal procedures of the monitoring service. */
export function createMonitoringRouter(deps: MonitoringDeps) {
  return router({
    health: checkHealth(deps),
    monitors: router({
      create: createMonitor(deps),
      list: listMonitors(deps),
      get: getMonitor(deps),
      update: updateMonitor(deps),
      delete: deleteMonitor(deps),
      check: checkMonitor(deps),
      listChecks: listMonitorChecks(deps),
    }),
    notifications: router({ list: listNotifications(deps), markRead: markNotificationRead(deps) }),
    digests: router({ getPreferences: getDigestPreferences(deps), putPreferences: putDigestPreferences(deps) }),
    webhooks: router({
      create: createWebhook(deps),
      list: listWebhooks(deps),
      delete: deleteWebhook(deps),
      listDeliveries: listWebhookDeliveries(deps),
    }),
    clock: router({ set: setClock(deps) }),
    scheduler: router({ runDue: runDue(deps) }),
  });
}

export type MonitoringRouter = ReturnType<typeof createMonitoringRouter>;
