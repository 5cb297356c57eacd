import type { Store } from '@vrs/store';
import { newId } from '@vrs/kit';

/** What a version holds; `data` is the YouTube adapter's output, shaped for the public answer on read. */
export type VersionKind = 'video' | 'transcript' | 'comments' | 'newestComments' | 'channel' | 'channelPlaylists' | 'playlist' | 'search';

export interface VersionDoc<T = unknown> {
  _id: string;
  kind: VersionKind;
  /** Names what was asked for (see versions/keys.ts); the versions of one key form its history. */
  key: string;
  fetchedAt: string;
  data: T;
}

/**
 * Every fetch from YouTube is a new version, never an overwrite, so a failed or partial fetch never
 * erases a good one. Each save prunes the key to its newest `kept` (PROVIDER_VERSIONS_KEPT, ADR 0029).
 */
export function createVersionsRepo(store: Store, { kept }: { kept: number }) {
  const versions = store.collection<VersionDoc>('versions');

  /** Deletes the versions of one key behind its newest `kept`. */
  async function prune(kind: VersionKind, key: string): Promise<void> {
    const older = await versions.find({ kind, key }, { sort: { fetchedAt: -1, _id: -1 }, skip: kept, projection: { _id: 1 } });
    if (older.length) await versions.deleteMany({ _id: { $in: older.map((doc) => doc._id) } });
  }
  return {
    ensureIndexes: () => versions.createIndexes([{ key: { kind: 1, key: 1, fetchedAt: -1 }, name: 'kind_key_newest_first' }]),

    /** The most recently fetched version of a key, or null when it was never fetched. */
    latest: <T>(kind: VersionKind, key: string) =>
      versions.findOne({ kind, key }, { sort: { fetchedAt: -1, _id: -1 } }) as Promise<VersionDoc<T> | null>,

    async save<T>(kind: VersionKind, key: string, data: T): Promise<VersionDoc<T>> {
      const version: VersionDoc<T> = {
        _id: newId('ver'),
        kind,
        key,
        fetchedAt: new Date().toISOString(),
        data,
      };
      await versions.insertOne(version);
      await prune(kind, key);
      return version;
    },

    ping: () => store.ping(),
  };
}

export type VersionsRepo = ReturnType<typeof createVersionsRepo>;
