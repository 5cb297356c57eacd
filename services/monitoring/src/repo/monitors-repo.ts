import type { MonitorQuery, MonitorStatus } from '@vrs/contracts';
import { newId } from '@vrs/kit';
import { deleteInBatches, findPage, type PageRequest, type Store, type StoreScope } from '@vrs/store';

/** What a monitor remembers between checks, to tell what is new. */
export interface MonitorState {
  /** Videos already seen (search, channel) or already notified (topic), newest first, bounded. */
  seenIds: string[];
  /** Channel monitors: playlists already seen. Absent (state saved before playlists were watched): the next check is their baseline. */
  playlistIds?: string[];
  /** Video monitors: the newest comments already seen. Absent: the next check is their baseline. */
  commentIds?: string[];
  /** Video monitors: the figures at the last check. */
  video?: { viewCount: number; commentCount: number; at: number; viewsPerHour: number | null };
}

export interface MonitorDoc {
  _id: string;
  accountId: string;
  query: MonitorQuery;
  intervalMinutes: number;
  enabled: boolean;
  /** Epoch ms; the scheduler's only source of truth (ADR 0028). */
  nextCheckAt: number;
  status: MonitorStatus;
  statusReason: string | null;
  consecutiveFailures: number;
  lastCheckedAt: number | null;
  createdAt: string;
  /** Epoch ms until which a checker holds the monitor; 0 when free. */
  leaseUntil: number;
  /** The claim that holds the lease: only it may write the check's result. */
  leaseToken: string | null;
  /** Null until the first check of the current query (the baseline). */
  state: MonitorState | null;
}

export function createMonitorsRepo(store: Store) {
  const monitors = store.collection<MonitorDoc>('monitors');

  return {
    ensureIndexes: () =>
      monitors.createIndexes([
        { key: { accountId: 1, createdAt: -1, _id: -1 }, name: 'account_newest_first' },
        { key: { enabled: 1, nextCheckAt: 1 }, name: 'due' },
      ]),

    ping: () => monitors.countDocuments({ _id: '' }).then(() => undefined),

    async create(
      fields: Pick<MonitorDoc, 'accountId' | 'query' | 'intervalMinutes' | 'enabled' | 'nextCheckAt' | 'createdAt'>,
    ): Promise<MonitorDoc> {
      const monitor: MonitorDoc = {
        _id: newId('mon'),
        ...fields,
        status: fields.enabled ? 'active' : 'disabled',
        statusReason: null,
        consecutiveFailures: 0,
        lastCheckedAt: null,
        leaseUntil: 0,
        leaseToken: null,
        state: null,
      };
      await monitors.insertOne(monitor);
      return monitor;
    },

    /** Found only for its owner: another account's monitor and an unknown one look the same. */
    findOwned: (accountId: string, monitorId: string) => monitors.findOne({ _id: monitorId, accountId }),

    /** Every monitor of a deleted account: the scheduler finds none of them due afterwards (ADR 0033). */
    deleteAllOfAccount: (accountId: string): Promise<number> => deleteInBatches(monitors, { accountId }),

    /** Newest first (ADR 0020). */
    listOwned: (accountId: string, page: PageRequest) => findPage(monitors, 'monitors', { accountId }, page),

    updateOwned: (accountId: string, monitorId: string, set: Partial<MonitorDoc>) =>
      monitors.findOneAndUpdate({ _id: monitorId, accountId }, { $set: set }),

    async deleteOwned(accountId: string, monitorId: string): Promise<boolean> {
      const { deletedCount } = await monitors.deleteOne({ _id: monitorId, accountId });
      return deletedCount === 1;
    },

    /** Enabled monitors whose check is due at `now`, leased or not (the metrics' monitors due). */
    countDue: (now: number) => monitors.countDocuments({ enabled: true, nextCheckAt: { $lte: now } }),

    /** Ids of due, unleased monitors, soonest first: candidates, each still to be claimed. */
    async dueCandidates(now: number, limit: number): Promise<string[]> {
      const docs = await monitors.find(
        { enabled: true, nextCheckAt: { $lte: now }, leaseUntil: { $lte: now } },
        { sort: { nextCheckAt: 1 }, limit, projection: { _id: 1 } },
      );
      return docs.map((doc) => doc._id);
    },

    /**
     * Claims a candidate if it is still due and unleased: one atomic conditional update, so replicas
     * sharing the store never claim the same monitor twice (ADR 0028). Null when another got it.
     */
    claim: (monitorId: string, now: number, leaseMs: number, leaseToken: string) =>
      monitors.findOneAndUpdate(
        { _id: monitorId, enabled: true, nextCheckAt: { $lte: now }, leaseUntil: { $lte: now } },
        { $set: { leaseUntil: now + leaseMs, leaseToken } },
      ),

    /** Writes a check's result and frees the lease, only while `leaseToken` still holds it; through `tx`, with the check's record. */
    async finishCheck(monitorId: string, leaseToken: string, set: Partial<MonitorDoc>, tx: StoreScope): Promise<boolean> {
      const collection = tx.collection<MonitorDoc>('monitors');
      const result = await collection.updateOne({ _id: monitorId, leaseToken }, { $set: { ...set, leaseUntil: 0, leaseToken: null } });
      return result.matchedCount === 1;
    },
  };
}

export type MonitorsRepo = ReturnType<typeof createMonitorsRepo>;
