import { LRUCache } from 'lru-cache';
import type { EvidenceRepo } from '../repo/evidence-repo';
import { createEvidenceIndex, upsertIntoIndex, type EvidenceIndex } from './evidence-index';

interface CachedIndex {
  index: EvidenceIndex;
  /** The project `indexVersion` this index is known to reflect (0: nothing loaded yet). */
  version: number;
  /** The version it was first built for: an index built before the project's last reset is stale. */
  builtFor: number;
  /** Characters of text loaded into the index: its memory, roughly (replaced documents count again). */
  loadedChars: number;
  /** The one load in flight for this project: concurrent searches wait for it instead of loading too. */
  loading?: Promise<void>;
}

export interface IndexCacheOptions {
  /** Projects whose index is kept in memory; the least recently searched one is dropped beyond it. */
  maxProjects: number;
  /**
   * Text characters all cached indexes may hold together; least recently searched ones are dropped
   * beyond it. A project larger than this on its own is searched but not kept.
   */
  maxLoadedChars?: number;
}

/** 64 Mi characters of evidence text: a few hundred MB of index at most. */
export const defaultMaxLoadedChars = 64 * 1024 * 1024;

/**
 * Per-process cache of search indexes, one per project. The store is the source of truth: an
 * index is brought up to the project's `indexVersion` by loading only the evidence marked after
 * the version it reflects (everything the first time), so any replica converges on the same
 * content however many events it did or did not see itself.
 */
export function createIndexCache(evidence: EvidenceRepo, options: IndexCacheOptions) {
  const entries = new LRUCache<string, CachedIndex>({
    max: options.maxProjects,
    maxSize: options.maxLoadedChars ?? defaultMaxLoadedChars,
    sizeCalculation: (entry) => Math.max(1, entry.loadedChars),
  });

  async function load(projectId: string, entry: CachedIndex, target: number): Promise<void> {
    // `target` was read before this query, so everything marked up to it is in the answer. Documents
    // marked after it may come too; loading them early is harmless (they are replaced again later).
    const docs = await evidence.findIndexedAfter(projectId, entry.version);
    for (const doc of docs) {
      upsertIntoIndex(entry.index, doc);
      entry.loadedChars += doc.text.length;
    }
    entry.version = Math.max(entry.version, target);
    // Stored again so the cache weighs the entry at its new size (and drops others if it must);
    // lru-cache keeps the old size when the same value is set over itself.
    if (entries.get(projectId) === entry) {
      entries.delete(projectId);
      entries.set(projectId, entry);
    }
  }

  return {
    /**
     * The project's index, reflecting at least `version` (the project's current `indexVersion`).
     * An index built before `resetVersion` (evidence was removed then) is dropped and built anew.
     * When the cached index is current this touches no store.
     */
    async indexFor(projectId: string, version: number, resetVersion = 0): Promise<EvidenceIndex> {
      let entry = entries.get(projectId);
      if (!entry || entry.builtFor < resetVersion) {
        entry = { index: createEvidenceIndex(), version: 0, builtFor: version, loadedChars: 0 };
        entries.set(projectId, entry);
      }
      while (entry.version < version) {
        // One load at a time per project, so an older answer can never overwrite a newer one.
        entry.loading ??= load(projectId, entry, version).finally(() => {
          entry.loading = undefined;
        });
        await entry.loading;
      }
      return entry.index;
    },

    /** Drops a project's index from this process (the project was deleted). */
    forget(projectId: string): void {
      entries.delete(projectId);
    },
  };
}

export type IndexCache = ReturnType<typeof createIndexCache>;
