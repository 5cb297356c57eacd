import { describe, expect, it } from 'vitest';
import type { EvidenceRepo, IndexableEvidence } from '../repo/evidence-repo';
import { createIndexCache } from './index-cache';

/** An evidence repo that records which loads the cache asks for and answers from a fixed list. */
function recordingRepo(docsByProject: Record<string, IndexableEvidence[]>) {
  const loads: Array<[projectId: string, afterVersion: number]> = [];
  const repo = {
    async findIndexedAfter(projectId: string, version: number) {
      loads.push([projectId, version]);
      return docsByProject[projectId] ?? [];
    },
  } as unknown as EvidenceRepo;
  return { repo, loads };
}

describe('index cache', () => {
  it('loads everything first, nothing while current, only newer marks after that', async () => {
    const { repo, loads } = recordingRepo({ p1: [{ _id: 'e1', text: 'alpha' }] });
    const cache = createIndexCache(repo, { maxProjects: 10 });

    const index = await cache.indexFor('p1', 1);
    expect(index.search('alpha').map((hit) => hit.id)).toEqual(['e1']);
    await cache.indexFor('p1', 1);
    await cache.indexFor('p1', 3);
    expect(loads).toEqual([
      ['p1', 0],
      ['p1', 1],
    ]);
  });

  it('replaces a reloaded document instead of keeping both versions', async () => {
    const docs = { p1: [{ _id: 'e1', text: 'old words' }] };
    const { repo } = recordingRepo(docs);
    const cache = createIndexCache(repo, { maxProjects: 10 });
    await cache.indexFor('p1', 1);
    docs.p1 = [{ _id: 'e1', text: 'new words' }];
    const index = await cache.indexFor('p1', 2);
    expect(index.documentCount).toBe(1);
    expect(index.search('old')).toEqual([]);
    expect(index.search('new').map((hit) => hit.text)).toEqual(['new words']);
  });

  it('rebuilds from scratch an index built before the project’s last reset, so removed documents go', async () => {
    const docs = {
      p1: [
        { _id: 'e1', text: 'kept' },
        { _id: 'e2', text: 'removed' },
      ] as IndexableEvidence[],
    };
    const { repo, loads } = recordingRepo(docs);
    const cache = createIndexCache(repo, { maxProjects: 10 });
    await cache.indexFor('p1', 1);
    docs.p1 = [{ _id: 'e1', text: 'kept' }];
    const rebuilt = await cache.indexFor('p1', 2, 2);
    expect(rebuilt.search('removed')).toEqual([]);
    expect(rebuilt.documentCount).toBe(1);
    // Built for the reset version itself, it is current: later versions load only newer marks.
    await cache.indexFor('p1', 3, 2);
    expect(loads).toEqual([
      ['p1', 0],
      ['p1', 0],
      ['p1', 2],
    ]);
  });

  it('shares one load between concurrent searches of a project', async () => {
    const { repo, loads } = recordingRepo({});
    const cache = createIndexCache(repo, { maxProjects: 10 });
    await Promise.all([cache.indexFor('p1', 2), cache.indexFor('p1', 2), cache.indexFor('p1', 2)]);
    expect(loads).toEqual([['p1', 0]]);
  });

  it('drops the least recently searched project beyond maxProjects and rebuilds it on its next search', async () => {
    const { repo, loads } = recordingRepo({});
    const cache = createIndexCache(repo, { maxProjects: 2 });
    await cache.indexFor('a', 1);
    await cache.indexFor('b', 1);
    await cache.indexFor('a', 1); // a is now the most recent, so c evicts b
    await cache.indexFor('c', 1);
    loads.length = 0;
    await cache.indexFor('a', 1);
    await cache.indexFor('b', 1);
    expect(loads).toEqual([['b', 0]]);
  });

  it('keeps the indexes within maxLoadedChars, dropping the least recently searched first', async () => {
    const text = (n: number) => 'word '.repeat(n / 5);
    const { repo, loads } = recordingRepo({
      small: [{ _id: 's1', text: text(100) }],
      big: [{ _id: 'b1', text: text(800) }],
      big2: [{ _id: 'c1', text: text(800) }],
      huge: [{ _id: 'h1', text: text(5_000) }],
    });
    const cache = createIndexCache(repo, { maxProjects: 10, maxLoadedChars: 1_000 });
    await cache.indexFor('small', 1);
    await cache.indexFor('big', 1);
    loads.length = 0;
    await cache.indexFor('small', 1);
    await cache.indexFor('big', 1);
    expect(loads).toEqual([]);

    // Larger than the whole budget: searched, never kept, and it does not push the others out.
    expect((await cache.indexFor('huge', 1)).documentCount).toBe(1);
    await cache.indexFor('huge', 1);
    expect(loads).toEqual([
      ['huge', 0],
      ['huge', 0],
    ]);
    loads.length = 0;
    await cache.indexFor('small', 1);
    await cache.indexFor('big', 1);
    expect(loads).toEqual([]);

    // Another large project fits only by dropping the least recently searched one (big, not small).
    await cache.indexFor('small', 1);
    await cache.indexFor('big2', 1);
    loads.length = 0;
    await cache.indexFor('small', 1);
    await cache.indexFor('big2', 1);
    await cache.indexFor('big', 1);
    expect(loads).toEqual([['big', 0]]);
  });
});
