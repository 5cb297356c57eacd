import type { MonitorCheck } from '@vrs/contracts';
import type { Store } from '@vrs/store';

export interface CheckDoc extends Omit<MonitorCheck, 'id'> {
  _id: string;
  accountId: string;
}

/** The check history of every monitor, newest first. */
export function createChecksRepo(store: Store) {
  const checks = store.collection<CheckDoc>('checks');
  return {
    ensureIndexes: () => checks.createIndexes([{ key: { monitorId: 1, checkedAt: -1, _id: -1 }, name: 'monitor_newest_first' }]),

    insert: (check: CheckDoc) => checks.insertOne(check),

    findOwned: (accountId: string, monitorId: string, checkId: string) => checks.findOne({ _id: checkId, accountId, monitorId }),

    /** Newest first by `(checkedAt, _id)`; `after` is the last check of the previous page. */
    async list(monitorId: string, limit: number, after?: CheckDoc): Promise<{ checks: CheckDoc[]; hasMore: boolean }> {
      const filter = after
        ? { monitorId, $or: [{ checkedAt: { $lt: after.checkedAt } }, { checkedAt: after.checkedAt, _id: { $lt: after._id } }] }
        : { monitorId };
      const page = await checks.find(filter, { sort: { checkedAt: -1, _id: -1 }, limit: limit + 1 });
      return { checks: page.slice(0, limit), hasMore: page.length > limit };
    },

    deleteForMonitor: (monitorId: string) => checks.deleteMany({ monitorId }),
  };
}

export type ChecksRepo = ReturnType<typeof createChecksRepo>;

export function toMonitorCheck({ _id, accountId: _owner, ...check }: CheckDoc): MonitorCheck {
  return { id: _id, ...check };
}
