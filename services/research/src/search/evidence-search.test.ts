import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '@vrs/testing/temp-dir';
import { searchResultSchema } from '@vrs/contracts';
import { openEmbeddedSearchInThread, type SearchIndex } from '@vrs/search';
import type { EvidenceRepo, IndexableEvidence } from '../repo/evidence-repo';
import { createEvidenceSearch } from './evidence-search';

type MarkedEvidence = IndexableEvidence & { indexedVersion: number };

/** An evidence repo over a fixed list that records the store reads the search asks for. */
function recordingRepo(docs: MarkedEvidence[]) {
  const pages: Array<[afterVersion: number, afterId: string | undefined]> = [];
  const byIds: string[][] = [];
  const repo = {
    async pageIndexedAfter(_projectId: string, version: number, afterId: string | undefined, limit: number) {
      pages.push([version, afterId]);
      return docs
        .filter((doc) => doc.indexedVersion > version && (afterId === undefined || doc._id > afterId))
        .sort((a, b) => (a._id < b._id ? -1 : 1))
        .slice(0, limit);
    },
    async findIndexable(_projectId: string, ids: string[]) {
      byIds.push(ids);
      return docs.filter((doc) => ids.includes(doc._id));
    },
  } as unknown as EvidenceRepo;
  return { repo, pages, byIds };
}

/** `index` recording each query the engine is asked, as `query/limit`. */
function countingIndex(index: SearchIndex): { counted: SearchIndex; queries: string[] } {
  const queries: string[] = [];
  const counted: SearchIndex = {
    ...index,
    search: (scope, query, limit) => {
      queries.push(`${query}/${limit}`);
      return index.search(scope, query, limit);
    },
  };
  return { counted, queries };
}

describe('evidence search over the search port', () => {
  let dir: string;
  let index: SearchIndex;
  beforeEach(async () => {
    dir = makeTempDir('evidence-search-');
    index = openEmbeddedSearchInThread(dir);
  });
  afterEach(() => index.close());

  it('loads everything first, nothing while current, only newer marks after that', async () => {
    const docs: MarkedEvidence[] = [{ _id: 'e1', text: 'alpha', sourceKey: 'k1', startMs: 5, indexedVersion: 1 }];
    const { repo, pages } = recordingRepo(docs);
    const search = createEvidenceSearch(repo, index);

    expect(await search.search('p1', { indexVersion: 1 }, 'alpha', 10)).toEqual([
      { id: 'e1', score: expect.any(Number), text: 'alpha', startMs: 5, sourceKey: 'k1', index: 1 },
    ]);
    await search.search('p1', { indexVersion: 1 }, 'alpha', 10);
    docs.push({ _id: 'e2', text: 'alpha beta', indexedVersion: 3 });
    expect((await search.search('p1', { indexVersion: 3 }, 'beta', 10)).map((hit) => hit.id)).toEqual(['e2']);
    expect(pages).toEqual([
      [0, undefined],
      [1, undefined],
    ]);
  });

  it('answers pages that the contract’s output schema leaves unchanged, frozen (the gateway writes them without parsing them again)', async () => {
    const docs: MarkedEvidence[] = [
      {
        _id: 'e1',
        text: 'alpha with every field',
        provider: 'youtube',
        entityId: 'dQw4w9WgXcQ',
        startMs: 0,
        sourceKey: 'k1',
        indexedVersion: 1,
      },
      { _id: 'e2', text: 'alpha with none', indexedVersion: 1 },
      { _id: 'e3', text: 'alpha alpha with a start', startMs: 125_000, indexedVersion: 1 },
    ];
    const search = createEvidenceSearch(recordingRepo(docs).repo, index);

    const page = { query: 'alpha', results: [...(await search.search('p1', { indexVersion: 1 }, 'alpha', 10))] };
    expect(page.results).toHaveLength(3);
    expect(searchResultSchema.parse(page)).toStrictEqual(page);
    expect(page.results.every((hit) => Object.isFrozen(hit))).toBe(true);
  });

  it('survives a restart: a reopened index loads nothing it already reflects', async () => {
    const { repo, pages } = recordingRepo([{ _id: 'e1', text: 'persisted alpha', indexedVersion: 2 }]);
    await createEvidenceSearch(repo, index).search('p1', { indexVersion: 2 }, 'alpha', 10);
    await index.close();
    index = openEmbeddedSearchInThread(dir);
    pages.length = 0;

    const restarted = createEvidenceSearch(repo, index);
    expect((await restarted.search('p1', { indexVersion: 2 }, 'persisted', 10)).map((hit) => hit.id)).toEqual(['e1']);
    expect(pages).toEqual([]);
  });

  it('takes an indexed event’s items by id when the index is at the version before, else catches up from the store', async () => {
    const docs: MarkedEvidence[] = [
      { _id: 'e1', text: 'first words', indexedVersion: 1 },
      { _id: 'e2', text: 'second words', indexedVersion: 2 },
    ];
    const { repo, pages, byIds } = recordingRepo(docs);
    const search = createEvidenceSearch(repo, index);

    await search.indexed('p1', ['e1'], 0);
    expect(byIds).toEqual([['e1']]);
    expect(pages).toEqual([]);
    expect(await index.version('p1')).toBe(1);

    // An event this process handles while its index is behind (it missed version 2): a catch-up.
    docs.push({ _id: 'e3', text: 'third words', indexedVersion: 3 });
    await search.indexed('other', ['e3'], 2);
    expect(pages).toEqual([[0, undefined]]);
    expect(await index.version('other')).toBe(3);
    expect((await search.search('other', { indexVersion: 3 }, 'words', 10)).map((hit) => hit.id).sort()).toEqual(['e1', 'e2', 'e3']);
  });

  it('loads a large project page by page, and a rebuild loads it all again', async () => {
    const docs = Array.from({ length: 2_500 }, (_, i) => ({
      _id: `e${String(i).padStart(5, '0')}`,
      text: `item ${i} common`,
      indexedVersion: 1,
    }));
    const { repo, pages } = recordingRepo(docs);
    const search = createEvidenceSearch(repo, index);
    expect(await search.search('p1', { indexVersion: 1 }, 'common', 5)).toHaveLength(5);
    expect(pages).toEqual([
      [0, undefined],
      [0, 'e00999'],
      [0, 'e01999'],
    ]);

    pages.length = 0;
    await search.rebuild('p1', 4);
    expect(await index.version('p1')).toBe(4);
    expect(pages).toHaveLength(3);
    expect((await search.search('p1', { indexVersion: 4 }, 'item 2499', 1))[0]!.id).toBe('e02499');
  });

  it('rebuilds from scratch an index built before the project’s last reset, so removed documents go', async () => {
    const docs: MarkedEvidence[] = [
      { _id: 'e1', text: 'kept', indexedVersion: 1 },
      { _id: 'e2', text: 'removed', indexedVersion: 1 },
    ];
    const { repo, pages } = recordingRepo(docs);
    const search = createEvidenceSearch(repo, index);
    expect(await search.search('p1', { indexVersion: 1 }, 'removed', 10)).toHaveLength(1);
    docs.splice(1, 1);
    expect(await search.search('p1', { indexVersion: 2, indexResetVersion: 2 }, 'removed', 10)).toEqual([]);
    expect((await search.search('p1', { indexVersion: 2, indexResetVersion: 2 }, 'kept', 10)).map((hit) => hit.id)).toEqual(['e1']);
    // Built for the reset version itself, it is current: later versions load only newer marks.
    await search.search('p1', { indexVersion: 3, indexResetVersion: 2 }, 'kept', 10);
    expect(pages).toEqual([
      [0, undefined],
      [0, undefined],
      [2, undefined],
    ]);
    expect(await index.builtFor('p1')).toBe(2);

    await search.forget('p1');
    expect(await index.version('p1')).toBe(0);
  });

  it('serializes one project’s loads: concurrent searches share the catch-up', async () => {
    const { repo, pages } = recordingRepo([{ _id: 'e1', text: 'alpha', indexedVersion: 2 }]);
    const search = createEvidenceSearch(repo, index);
    await Promise.all([
      search.search('p1', { indexVersion: 2 }, 'alpha', 10),
      search.search('p1', { indexVersion: 2 }, 'alpha', 10),
      search.search('p1', { indexVersion: 2 }, 'alpha', 10),
    ]);
    expect(pages).toEqual([[0, undefined]]);
  });

  it('answers a query asked again at the same index state from its result cache, and afresh once the index changed', async () => {
    const docs: MarkedEvidence[] = [{ _id: 'e1', text: 'alpha one', indexedVersion: 1 }];
    const { repo } = recordingRepo(docs);
    const { counted, queries } = countingIndex(index);
    const search = createEvidenceSearch(repo, counted);

    // Kept from the second asking on (a query asked once would only push out pages asked again).
    const first = await search.search('p1', { indexVersion: 1 }, 'alpha', 10);
    const second = await search.search('p1', { indexVersion: 1 }, 'alpha', 10);
    expect(second).toEqual(first);
    expect(await search.search('p1', { indexVersion: 1 }, 'alpha', 10)).toBe(second);
    expect(Object.isFrozen(second[0])).toBe(true);
    await search.search('p1', { indexVersion: 1 }, 'alpha', 5);
    expect(queries).toEqual(['alpha/10', 'alpha/10', 'alpha/5']);

    // A write moves the version: the same query now finds the new item.
    docs.push({ _id: 'e2', text: 'alpha two', indexedVersion: 2 });
    await search.indexed('p1', ['e2'], 1);
    expect((await search.search('p1', { indexVersion: 2 }, 'alpha', 10)).map((hit) => hit.id).sort()).toEqual(['e1', 'e2']);
    // So does a reader that asks for the older version: the index it reads has moved on.
    expect(await search.search('p1', { indexVersion: 1 }, 'alpha', 10)).toHaveLength(2);

    // A removal rebuilds the index for the reset version: nothing removed is answered from before.
    docs.splice(0, 1);
    expect((await search.search('p1', { indexVersion: 3, indexResetVersion: 3 }, 'alpha', 10)).map((hit) => hit.id)).toEqual(['e2']);
    // The version-2 query asked twice (the second asking kept it), then the rebuilt index.
    expect(queries).toEqual(['alpha/10', 'alpha/10', 'alpha/5', 'alpha/10', 'alpha/10', 'alpha/10']);

    // With no room for result pages, every search asks the engine (what bench/search-scale times).
    const uncached = createEvidenceSearch(repo, counted, { resultCacheBytes: 0 });
    queries.length = 0;
    await uncached.search('p1', { indexVersion: 3, indexResetVersion: 3 }, 'alpha', 10);
    await uncached.search('p1', { indexVersion: 3, indexResetVersion: 3 }, 'alpha', 10);
    expect(queries).toEqual(['alpha/10', 'alpha/10']);
  });

  it('keeps no page for a query asked once: distinct queries never push out a page asked again', async () => {
    const { repo } = recordingRepo([
      { _id: 'e1', text: 'alpha one', indexedVersion: 1 },
      { _id: 'e2', text: 'beta two', indexedVersion: 1 },
    ]);
    const { counted, queries } = countingIndex(index);
    // Room for one one-hit page (64 + 3 × 9 + 250 bytes), not two.
    const search = createEvidenceSearch(repo, counted, { resultCacheBytes: 400 });
    await search.search('p1', { indexVersion: 1 }, 'alpha', 10);
    const kept = await search.search('p1', { indexVersion: 1 }, 'alpha', 10);
    for (const word of ['beta', 'two', 'one']) await search.search('p1', { indexVersion: 1 }, word, 10);
    expect(await search.search('p1', { indexVersion: 1 }, 'alpha', 10)).toBe(kept);
    expect(queries).toEqual(['alpha/10', 'alpha/10', 'beta/10', 'two/10', 'one/10']);
    // Asked again, a page takes the room only once its query was asked more often than alpha's (ADR 0067).
    for (let asking = 2; asking <= 3; asking++) await search.search('p1', { indexVersion: 1 }, 'beta', 10);
    // Alpha's fourth asking.
    expect(await search.search('p1', { indexVersion: 1 }, 'alpha', 10)).toBe(kept);
    for (let asking = 4; asking <= 5; asking++) await search.search('p1', { indexVersion: 1 }, 'beta', 10);
    const beta = await search.search('p1', { indexVersion: 1 }, 'beta', 10);
    expect(await search.search('p1', { indexVersion: 1 }, 'beta', 10)).toBe(beta);
    expect(await search.search('p1', { indexVersion: 1 }, 'alpha', 10)).not.toBe(kept);
  });

  describe('beside a project read still under way (ADR 0115)', () => {
    type Read = { indexVersion: number; indexResetVersion?: number };
    /** A project read the test answers or refuses when it chooses. */
    function pendingRead() {
      let answer!: (project: Read) => void;
      let refuse!: (error: Error) => void;
      const read = new Promise<Read>((resolve, reject) => {
        answer = resolve;
        refuse = reject;
      });
      return { read, answer, refuse };
    }
    /** A search without result pages over one item at version 1, and the queries the engine was asked. */
    function uncachedSearch() {
      const docs: MarkedEvidence[] = [{ _id: 'e1', text: 'alpha one', indexedVersion: 1 }];
      const { counted, queries } = countingIndex(index);
      return { docs, queries, search: createEvidenceSearch(recordingRepo(docs).repo, counted, { resultCacheBytes: 0 }) };
    }
    const ids = (hits: readonly { id: string }[]) => hits.map((hit) => hit.id).sort();

    it('asks the engine before the read answers once the index was seen, and answers that page when the read shows nothing newer', async () => {
      const { search, queries } = uncachedSearch();
      await search.search('p1', { indexVersion: 1 }, 'alpha', 10);
      queries.length = 0;
      const { read, answer } = pendingRead();
      const searching = search.search('p1', read, 'alpha', 10);
      await new Promise((resolve) => setImmediate(resolve));
      expect(queries).toEqual(['alpha/10']);
      answer({ indexVersion: 1 });
      expect(ids(await searching)).toEqual(['e1']);
      expect(queries).toEqual(['alpha/10']);
    });

    it('catches up and asks again when the read shows a newer version or a removal since', async () => {
      const { docs, search, queries } = uncachedSearch();
      await search.search('p1', { indexVersion: 1 }, 'alpha', 10);
      docs.push({ _id: 'e2', text: 'alpha two', indexedVersion: 2 });
      queries.length = 0;
      const newer = pendingRead();
      const searching = search.search('p1', newer.read, 'alpha', 10);
      newer.answer({ indexVersion: 2 });
      expect(ids(await searching)).toEqual(['e1', 'e2']);
      expect(queries).toEqual(['alpha/10', 'alpha/10']);

      docs.splice(0, 1);
      const afterRemoval = pendingRead();
      const rebuilt = search.search('p1', afterRemoval.read, 'alpha', 10);
      afterRemoval.answer({ indexVersion: 3, indexResetVersion: 3 });
      expect(ids(await rebuilt)).toEqual(['e2']);
    });

    it('fails as the read fails', async () => {
      const { search } = uncachedSearch();
      await search.search('p1', { indexVersion: 1 }, 'alpha', 10);
      const { read, refuse } = pendingRead();
      const searching = search.search('p1', read, 'alpha', 10);
      refuse(new Error('PROJECT_NOT_FOUND'));
      await expect(searching).rejects.toThrow('PROJECT_NOT_FOUND');
    });

    it('counts each asking once, so a query asked once keeps no page and one asked twice is kept', async () => {
      const { counted, queries } = countingIndex(index);
      const search = createEvidenceSearch(recordingRepo([{ _id: 'e1', text: 'alpha one', indexedVersion: 1 }]).repo, counted);
      await search.search('p1', { indexVersion: 1 }, 'warm', 10);
      queries.length = 0;
      const ask = async () => {
        const { read, answer } = pendingRead();
        const searching = search.search('p1', read, 'alpha', 10);
        answer({ indexVersion: 1 });
        return searching;
      };
      await ask();
      const kept = await ask();
      expect(await ask()).toBe(kept);
      expect(queries).toEqual(['alpha/10', 'alpha/10']);
    });

    it('asks nothing before the read for a project this process has not seen', async () => {
      const { search, queries } = uncachedSearch();
      const { read, answer } = pendingRead();
      const searching = search.search('p1', read, 'alpha', 10);
      await new Promise((resolve) => setImmediate(resolve));
      expect(queries).toEqual([]);
      answer({ indexVersion: 1 });
      expect(ids(await searching)).toEqual(['e1']);
    });
  });
});
