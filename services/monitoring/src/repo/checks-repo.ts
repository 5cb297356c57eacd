import { isoInstant, type MonitorCheck } from '@vrs/contracts';
import { deleteInBatches, findPage, type PageRequest, type Store, type StoreScope } from '@vrs/store';

export interface CheckDoc extends Omit<MonitorCheck, 'id' | 'checkedAt'> {
  _id: string;
  /** Epoch ms (the service clock); answered as an ISO string. */
  checkedAt: number;
  accountId: string;
  /** `checkedAt` as an ISO instant: the key every list pages on (ADR 0020). */
  createdAt: string;
}

/** A finished check before it is saved; the repository derives `createdAt`. */
export type NewCheck = Omit<CheckDoc, 'createdAt'>;

/** The check history of every monitor, newest first. */
export function createChecksRepo(store: Store) {
  const checks = store.collection<CheckDoc>('checks');
  return {
    // Named anew: the old `monitor_newest_first` sorted on `checkedAt`, and a name cannot change its key.
    ensureIndexes: () =>
      checks.createIndexes([{ key: { monitorId: 1, accountId: 1, createdAt: -1, _id: -1 }, name: 'monitor_owner_newest_first' }]),

    /** Through `tx`, so the check commits with its outbox event. */
    insert: (check: NewCheck, tx: StoreScope) =>
      tx.collection<CheckDoc>('checks').insertOne({ ...check, createdAt: new Date(check.checkedAt).toISOString() }),

    /** A monitor's checks, newest first (ADR 0020); the owner's filter keeps a cursor to the caller's own. */
    listOwned: (accountId: string, monitorId: string, page: PageRequest) =>
      findPage(checks, 'monitor_checks', { accountId, monitorId }, page),

    deleteForMonitor: (monitorId: string) => checks.deleteMany({ monitorId }),

    /** Every check of a deleted account, in batches: a monitor may have thousands (ADR 0033). */
    deleteAllOfAccount: (accountId: string): Promise<number> => deleteInBatches(checks, { accountId }),
  };
}

export type ChecksRepo = ReturnType<typeof createChecksRepo>;

export function toMonitorCheck({ _id, accountId: _owner, createdAt: _position, checkedAt, ...check }: CheckDoc): MonitorCheck {
  return { id: _id, checkedAt: isoInstant(checkedAt), ...check };
}
