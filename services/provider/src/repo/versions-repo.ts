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
 * Every fetch from YouTube is kept as a new version; nothing is overwritten, so a failed or partial
 * fetch never erases a good one and consumers can compare versions over time.
 */
export function createVersionsRepo(store: Store) {
  const versions = store.collection<VersionDoc>('versions');
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
      return version;
    },

    ping: () => store.ping(),
  };
}

export type VersionsRepo = ReturnType<typeof createVersionsRepo>;
