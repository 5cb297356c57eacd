import type { EvidenceRepo } from '../repo/evidence-repo';
import { createEvidenceIndex, upsertIntoIndex, type EvidenceIndex } from './evidence-index';

interface CachedIndex {
  index: EvidenceIndex;
  /** The project `indexVersion` this index is known to reflect (0: nothing loaded yet). */
  version: number;
  /** The one load in flight for this project: concurrent searches wait for it instead of loading too. */
  loading?: Promise<void>;
}

export interface IndexCacheOptions {
  /** Projects whose index is kept in memory; the least recently searched one is dropped beyond it. */
  maxProjects: number;
}

/**
 * Per-process cache of search indexes, one per project. The store is the source of truth: an
 * index is brought up to the project's `indexVersion` by loading only the evidence marked after
 * the version it reflects (everything the first time), so any replica converges on the same
 * content however many events it did or did not see itself.
 */
export function createIndexCache(evidence: EvidenceRepo, options: IndexCacheOptions) {
  const entries = new Map<string, CachedIndex>();

  /** Returns the project's entry, moved to the most recently used end of the map (its iteration order). */
  function touch(projectId: string): CachedIndex {
    let entry = entries.get(projectId);
    if (entry) entries.delete(projectId);
    else entry = { index: createEvidenceIndex(), version: 0 };
    entries.set(projectId, entry);
    if (entries.size > options.maxProjects) entries.delete(entries.keys().next().value!);
    return entry;
  }

  async function load(projectId: string, entry: CachedIndex, target: number): Promise<void> {
    // `target` was read before this query, so everything marked up to it is in the answer. Documents
    // marked after it may come too; loading them early is harmless (they are replaced again later).
    const docs = await evidence.findIndexedAfter(projectId, entry.version);
    for (const doc of docs) upsertIntoIndex(entry.index, doc);
    entry.version = Math.max(entry.version, target);
  }

  return {
    /**
     * The project's index, reflecting at least `version` (the project's current `indexVersion`).
     * When the cached index is current this touches no store.
     */
    async indexFor(projectId: string, version: number): Promise<EvidenceIndex> {
      const entry = touch(projectId);
      while (entry.version < version) {
        // One load at a time per project, so an older answer can never overwrite a newer one.
        entry.loading ??= load(projectId, entry, version).finally(() => {
          entry.loading = undefined;
        });
        await entry.loading;
      }
      return entry.index;
    },
  };
}

export type IndexCache = ReturnType<typeof createIndexCache>;
