import { AppError } from '@vrs/kit';
import type { MonitorDoc, MonitorsRepo } from '../../repo/monitors-repo';

/** The caller's monitor; another account's answers exactly as an unknown id (404). */
export async function requireOwnedMonitor(monitors: MonitorsRepo, accountId: string, monitorId: string): Promise<MonitorDoc> {
  const monitor = await monitors.findOwned(accountId, monitorId);
  if (!monitor) throw new AppError('MONITOR_NOT_FOUND');
  return monitor;
}
