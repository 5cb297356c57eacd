import type { Evidence } from '@vrs/contracts';
import { createEntryLruCache } from '@vrs/kit';
import { createResultCache, type SearchDocument, type SearchHit, type SearchIndex } from '@vrs/search';
import type { EvidenceRepo, IndexableEvidence } from '../repo/evidence-repo';

/** The index state of a project this process has seen: the version it holds, and the version it was built from scratch at. */
interface IndexState {
  version: number;
  builtFor: number;
}

/** What a search needs of the project's read: the versions its answer must reflect. */
export interface IndexedProject {
  indexVersion: number;
  indexResetVersion?: number;
}

/** Evidence loaded from the store per page when an index catches up with a project. */
const catchUpPageSize = 1_000;
/** Lost version moves (another process moving the same shared index) before a catch-up gives up. */
const maxCatchUpRounds = 10;
/** What the result pages of recent searches may hold, with what each keeps alive (`pageBytes`). */
const defaultResultCacheBytes = 8 * 1024 * 1024;

/**
 * Roughly the memory a cached page keeps alive: the page, the shared answer built from it and that
 * answer's JSON (ADR 0058); per hit, its text three times over and a fixed share (ADR 0063).
 */
const pageBytes = (hits: readonly Evidence[]) => hits.reduce((sum, hit) => sum + 3 * hit.text.length + 250, 64);

/** What an index stores of a document besides its text, in this order; unset fields stay absent. */
const storedFields = ['provider', 'entityId', 'startMs', 'sourceKey'] as const;

export function toSearchDocument(doc: IndexableEvidence): SearchDocument {
  const stored: Record<string, string | number> = {};
  for (const field of storedFields) if (doc[field] !== undefined) stored[field] = doc[field];
  return { id: doc._id, text: doc.text, stored };
}

/** Hits as contract Evidence, best first, `index` = 1-based rank; unset fields stay absent. */
export function toEvidence(hits: SearchHit[]): Evidence[] {
  return hits.map((hit, rank) => {
    const evidence: Evidence = { id: hit.id, score: hit.score, text: hit.text };
    for (const field of storedFields) if (hit.stored[field] !== undefined) Object.assign(evidence, { [field]: hit.stored[field] });
    evidence.index = rank + 1;
    return evidence;
  });
}

/**
 * Project search over the search port (ADR 0024, after ADR 0003). The store stays the source of
 * truth: a project's index holds the evidence marked up to the version it records, and is brought up
 * to the project's `indexVersion` by loading only what was marked after it. Writes to one project's
 * index are serialized in this process, so an older load never overwrites a newer one.
 * `resultCacheBytes` bounds the result pages kept (`createResultCache`); 0 keeps none.
 */
export function createEvidenceSearch(evidence: EvidenceRepo, index: SearchIndex, options: { resultCacheBytes?: number } = {}) {
  const resultCacheBytes = options.resultCacheBytes ?? defaultResultCacheBytes;
  /** Index states this process has seen: a search of a current project asks the engine nothing extra. */
  const known = createEntryLruCache<string, IndexState>({ maxEntries: 100_000 });
  /**
   * Result pages by project, the index state they were read at, limit and query: any write moves the
   * version (a rebuild after removals, builtFor), so a changed index is never answered from here.
   * Frozen, being handed to every caller who asks the same.
   */
  const results =
    resultCacheBytes > 0 ? createResultCache<readonly Evidence[]>({ maxBytes: resultCacheBytes, sizeOf: pageBytes }) : undefined;
  const queues = new Map<string, Promise<unknown>>();

  function serialized<T>(projectId: string, work: () => Promise<T>): Promise<T> {
    const previous = queues.get(projectId) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    queues.set(projectId, settled);
    void settled.then(() => {
      if (queues.get(projectId) === settled) queues.delete(projectId);
    });
    return next;
  }

  async function noteVersion(projectId: string, version: number) {
    if ((known.get(projectId)?.version ?? 0) < version) known.set(projectId, { version, builtFor: await index.builtFor(projectId) });
  }

  /** Whether an index at `state` holds everything of a project at `version` and was built since its last removal. */
  const covers = (state: IndexState | undefined, version: number, resetVersion: number) =>
    state !== undefined && state.version >= version && state.builtFor >= resetVersion;

  /** Drops an index built before the project's last removal (marks cannot say "gone"), then catches up. */
  async function bringUpToDate(projectId: string, version: number, resetVersion: number): Promise<void> {
    if (resetVersion > 0 && (await index.builtFor(projectId)) < resetVersion) {
      await index.drop(projectId);
      known.delete(projectId);
    }
    await catchUp(projectId, version);
  }

  /** Loads the evidence marked after the index's version, page by page, and moves it to `target`. */
  async function catchUp(projectId: string, target: number): Promise<void> {
    for (let round = 1; round <= maxCatchUpRounds; round++) {
      const from = await index.version(projectId);
      if (from >= target) return noteVersion(projectId, from);
      let afterId: string | undefined;
      for (;;) {
        const page = await evidence.pageIndexedAfter(projectId, from, afterId, catchUpPageSize);
        const last = page.length < catchUpPageSize;
        // Documents marked after `target` may come too: loading them early is harmless.
        const moved = await index.apply(projectId, page.map(toSearchDocument), last ? { from, to: target } : undefined);
        const lastOfPage = page.at(-1);
        if (last || lastOfPage === undefined) {
          if (moved) return noteVersion(projectId, target);
          break;
        }
        afterId = lastOfPage._id;
      }
    }
    throw new Error(`the search index of project ${projectId} lost ${maxCatchUpRounds} version moves`);
  }

  /**
   * The index's page for the query, kept under `state`, read before the query: a write landing during
   * it only makes the page newer than its key says. Asks the result cache once, which counts the asking.
   */
  async function page(projectId: string, state: IndexState | undefined, query: string, limit: number): Promise<readonly Evidence[]> {
    const key = results && state && `${projectId}\n${state.version}\n${state.builtFor}\n${limit}\n${query}`;
    const cached = key && results.get(key);
    if (cached) return cached;
    const hits = Object.freeze(toEvidence(await index.search(projectId, query, limit)).map((hit) => Object.freeze(hit)));
    if (key) results.offer(key, hits);
    return hits;
  }

  return {
    /**
     * The best `limit` items of the project for the query, with the index brought up to the project's
     * `indexVersion` first; an index built before its `indexResetVersion` (when evidence was last
     * removed) is built again. `project` may be a read still under way (ADR 0115): when this process
     * has seen the project's index, its page (from the result cache or the engine) is asked at once,
     * beside the read, and is the answer if the read shows nothing newer than what was seen; otherwise
     * the index catches up and the page is asked again. A failed read (not the caller's project) fails
     * the search.
     */
    async search(
      projectId: string,
      project: IndexedProject | Promise<IndexedProject>,
      query: string,
      limit: number,
    ): Promise<readonly Evidence[]> {
      const seen = known.get(projectId);
      const early = project instanceof Promise && seen ? page(projectId, seen, query, limit) : undefined;
      // Not awaited when the read fails or shows a newer index: its own failure then goes unheard.
      early?.catch(() => undefined);
      const { indexVersion: version, indexResetVersion: resetVersion = 0 } = await project;
      if (early && covers(seen, version, resetVersion)) return early;
      if (version > 0 && !covers(known.get(projectId), version, resetVersion))
        await serialized(projectId, () => bringUpToDate(projectId, version, resetVersion));
      return page(projectId, known.get(projectId), query, limit);
    },

    /**
     * After the indexer moved the project from `from` to `from + 1` by marking `evidenceIds`: an
     * index at `from` takes just those items (marks of versions up to `from` are already in it, and
     * an item another indexer marked `from + 1` without winning is marked again before any newer
     * version is published). Any other index catches up from the store.
     */
    indexed(projectId: string, evidenceIds: string[], from: number): Promise<void> {
      return serialized(projectId, async () => {
        const to = from + 1;
        if ((await index.version(projectId)) === from) {
          const docs = await evidence.findIndexable(projectId, evidenceIds);
          if (await index.apply(projectId, docs.map(toSearchDocument), { from, to })) return noteVersion(projectId, to);
        }
        await catchUp(projectId, to);
      });
    },

    /** Drops the project's index from the engine (the project was deleted). */
    forget(projectId: string): Promise<void> {
      return serialized(projectId, async () => {
        await index.drop(projectId);
        known.delete(projectId);
      });
    },

    /** Drops the project's index and loads it again from the store, up to `version` (a reindex). */
    rebuild(projectId: string, version: number): Promise<void> {
      return serialized(projectId, async () => {
        await index.drop(projectId);
        known.delete(projectId);
        await catchUp(projectId, version);
      });
    },
  };
}

export type EvidenceSearch = ReturnType<typeof createEvidenceSearch>;
