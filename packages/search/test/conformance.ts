import { afterEach, assert, beforeEach, describe, expect, it } from 'vitest';
import type { SearchDocument, SearchIndex } from '../src/port';

/**
 * What every search engine must do, run against each adapter. `settle` waits until the engine shows
 * what was written (immediate for the embedded engine; Mongo Search indexes asynchronously). With
 * `skipReason` the suite is skipped and the reason is part of its name (no server for that engine).
 */
export function describeSearchConformance(
  name: string,
  open: () => Promise<{ index: SearchIndex; reopen: () => Promise<SearchIndex>; cleanup?: () => Promise<void> }>,
  settle: <T>(read: () => Promise<T>, ready: (value: T) => boolean) => Promise<T> = async (read) => read(),
  skipReason?: string,
) {
  describe.skipIf(skipReason !== undefined)(
    skipReason ? `search conformance: ${name} (${skipReason})` : `search conformance: ${name}`,
    () => {
      let index: SearchIndex;
      let reopen: () => Promise<SearchIndex>;
      let cleanup: (() => Promise<void>) | undefined;
      let scopes = 0;
      let scope: string;
      beforeEach(async () => {
        ({ index, reopen, cleanup } = await open());
        scope = `scope_${process.pid}_${++scopes}`;
      });
      afterEach(async () => {
        await index.close();
        await cleanup?.();
      });

      const docs = (texts: string[]): SearchDocument[] => texts.map((text, i) => ({ id: `ev_${i}`, text }));
      const searchUntil = (query: string, limit: number, count: number, inScope = scope) =>
        settle(
          () => index.search(inScope, query, limit),
          (hits) => hits.length === count,
        );

      it('widens to prefix and fuzzy matches only when exact words cannot fill the page', async () => {
        await index.apply(scope, docs(['monetization strategies for creators', 'monetize your channel', 'unrelated cooking video']));
        const widened = await searchUntil('monetiz', 10, 2);
        expect(widened.map((hit) => hit.id).sort()).toEqual(['ev_0', 'ev_1']);
        expect(await index.search(scope, 'monetize', 1)).toEqual([expect.objectContaining({ id: 'ev_1' })]);
        const typo = await index.search(scope, 'monetizatiom', 10);
        expect(typo.map((hit) => hit.id)).toEqual(['ev_0']);
      });

      it('keeps exact hits ahead of widened ones, best first, scores never increasing', async () => {
        await index.apply(scope, docs(['espresso espresso crema', 'espresso', 'espressos are strong', 'tea']));
        const hits = await searchUntil('espresso', 10, 3);
        expect(
          hits
            .slice(0, 2)
            .map((hit) => hit.id)
            .sort(),
        ).toEqual(['ev_0', 'ev_1']);
        expect(hits[2]?.id).toBe('ev_2');
        const scores = hits.map((hit) => hit.score);
        expect([...scores].sort((a, b) => b - a)).toEqual(scores);
        expect(scores[2]).toBeGreaterThan(0);
      });

      it('ranks with BM25: more of the query words, and rarer ones, first; stored fields come back', async () => {
        await index.apply(scope, [
          { id: 'pasta', text: 'Cooking pasta at home with fresh tomatoes' },
          {
            id: 'best',
            text: 'YouTube channel monetization needs 1000 subscribers and 4000 watch hours',
            stored: { sourceKey: 'k', startMs: 1200 },
          },
          { id: 'shorts', text: 'Growing a YouTube channel with shorts' },
          { id: 'podcasts', text: 'Monetization tips for podcasts' },
        ]);
        const hits = await searchUntil('youtube monetization', 10, 3);
        expect(hits[0]).toEqual({
          id: 'best',
          text: expect.stringContaining('1000'),
          stored: { sourceKey: 'k', startMs: 1200 },
          score: expect.any(Number),
        });
        const [first, second] = hits;
        assert(first && second, 'two hits at least');
        expect(first.score).toBeGreaterThan(second.score);
        expect(new Set(hits.map((hit) => hit.id))).toEqual(new Set(['best', 'shorts', 'podcasts']));
        expect(await index.search(scope, 'youtube monetization', 1)).toEqual([hits[0]]);
      });

      it('ranks items with a rare word first when the other word is in nearly every item, and fills the page with the rest', async () => {
        await index.apply(scope, [
          ...Array.from({ length: 30 }, (_, i) => ({ id: `plain${String(i).padStart(2, '0')}`, text: `sourdough loaf number ${i}` })),
          { id: 'crumb1', text: 'sourdough crumb structure' },
          { id: 'crumb2', text: 'an open crumb and a sourdough crust, crumb everywhere' },
          { id: 'crumbOnly', text: 'crumb shot' },
        ]);
        const top = await searchUntil('sourdough crumb', 3, 3);
        expect(new Set(top.map((hit) => hit.id))).toEqual(new Set(['crumb1', 'crumb2', 'crumbOnly']));
        const page = await index.search(scope, 'sourdough crumb', 10);
        expect(page.slice(0, 3)).toEqual(top);
        expect(page.slice(3).every((hit) => hit.id.startsWith('plain'))).toBe(true);
        expect(page).toHaveLength(10);
        const scores = page.map((hit) => hit.score);
        expect([...scores].sort((a, b) => b - a)).toEqual(scores);
      });

      it('replaces a document by id, forgetting its old words', async () => {
        await index.apply(scope, [{ id: 'a', text: 'old words about thumbnails' }]);
        await searchUntil('thumbnails', 10, 1);
        await index.apply(scope, [{ id: 'a', text: 'new words about titles', stored: { sourceKey: 'x' } }]);
        const found = await searchUntil('titles', 10, 1);
        expect(found[0]).toMatchObject({ id: 'a', text: 'new words about titles', stored: { sourceKey: 'x' } });
        expect(await searchUntil('thumbnails', 10, 0)).toEqual([]);
      });

      it('keeps scopes apart, answers nothing for words it never saw, and treats query syntax as words', async () => {
        const other = `${scope}_other`;
        await index.apply(scope, [{ id: 'a', text: 'sourdough crumb structure' }]);
        await index.apply(other, [{ id: 'b', text: 'sourdough starter' }]);
        expect((await searchUntil('sourdough', 10, 1)).map((hit) => hit.id)).toEqual(['a']);
        expect((await searchUntil('sourdough', 10, 1, other)).map((hit) => hit.id)).toEqual(['b']);
        expect(await index.search(scope, 'zzzqqq', 10)).toEqual([]);
        expect(await index.search(scope, '" OR NEAR( * -:', 10)).toEqual([]);
        expect((await index.search(scope, 'crumb" OR "x', 10)).map((hit) => hit.id)).toEqual(['a']);
        await index.drop(other);
        expect(await index.search(other, 'sourdough', 10)).toEqual([]);
        expect(await index.version(other)).toBe(0);
      });

      it('moves a scope version only from the version it still has', async () => {
        expect(await index.version(scope)).toBe(0);
        expect(await index.apply(scope, docs(['alpha']), { from: 0, to: 1 })).toBe(true);
        expect(await index.version(scope)).toBe(1);
        // A stale move is refused, but its documents are kept (they are the same content again).
        expect(await index.apply(scope, [{ id: 'late', text: 'alpha beta' }], { from: 0, to: 2 })).toBe(false);
        expect(await index.version(scope)).toBe(1);
        expect(await index.apply(scope, [], { from: 1, to: 3 })).toBe(true);
        expect(await index.version(scope)).toBe(3);
        expect((await searchUntil('alpha', 10, 2)).map((hit) => hit.id).sort()).toEqual(['ev_0', 'late']);
        // Built for the target of its first move; a drop forgets it, and the next first move sets it again.
        expect(await index.builtFor(scope)).toBe(1);
        await index.drop(scope);
        expect(await index.builtFor(scope)).toBe(0);
        expect(await index.apply(scope, [], { from: 0, to: 4 })).toBe(true);
        expect(await index.builtFor(scope)).toBe(4);
      });

      it('writes many documents at once and finds each', async () => {
        const many = Array.from({ length: 1_234 }, (_, i) => ({ id: `d${i}`, text: `common words and marker${i}` }));
        expect(await index.apply(scope, many, { from: 0, to: 7 })).toBe(true);
        expect(await index.version(scope)).toBe(7);
        expect((await searchUntil('marker1233', 10, 1))[0]?.id).toBe('d1233');
        expect(await searchUntil('common', 25, 25)).toHaveLength(25);
      });

      it('keeps documents and versions across a reopen', async () => {
        await index.apply(scope, docs(['persisted words']), { from: 0, to: 5 });
        await index.close();
        index = await reopen();
        expect(await index.version(scope)).toBe(5);
        expect((await searchUntil('persisted', 10, 1)).map((hit) => hit.id)).toEqual(['ev_0']);
      });
    },
  );
}
