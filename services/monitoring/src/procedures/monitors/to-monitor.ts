import { isoInstant, type Monitor } from '@vrs/contracts';
import type { MonitorDoc } from '../../repo/monitors-repo';

export function toMonitor(doc: MonitorDoc): Monitor {
  return {
    id: doc._id,
    query: doc.query,
    intervalMinutes: doc.intervalMinutes,
    enabled: doc.enabled,
    nextCheckAt: doc.nextCheckAt,
    status: doc.status,
    statusReason: doc.statusReason,
    consecutiveFailures: doc.consecutiveFailures,
    lastCheckedAt: isoInstant(doc.lastCheckedAt),
    createdAt: doc.createdAt,
  };
}
