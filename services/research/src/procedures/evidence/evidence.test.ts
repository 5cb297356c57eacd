import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventBus } from '@vrs/bus';
import { isSharedJson } from '@vrs/kit';
import { createHarness, eventually, failureOf, newAccountId, type Harness, type ResearchInstance } from '../../testing/research-harness';

/** Searches until exactly `count` results come back: evidence is searchable once its event is indexed. */
function searchUntil(instance: ResearchInstance, input: { accountId: string; projectId: string; q: string }, count: number) {
  return eventually(
    async () => {
      const result = await instance.api.evidence.search(input);
      return result.results.length === count ? result : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 10, what: `${count} results for "${input.q}"` },
  );
}

describe('evidence', () => {
  let h: Harness;
  let accountId: string;
  let projectId: string;
  beforeEach(async () => {
    h = await createHarness();
    accountId = newAccountId();
    projectId = (await h.api.projects.create({ accountId, name: 'research' })).id;
  });
  afterEach(() => h.close());

  const countStored = () => h.store.collection('evidence').countDocuments({ projectId });

  it('stores items with stable ids and only the fields that were set', async () => {
    const { items } = await h.api.evidence.add({
      accountId,
      projectId,
      items: [
        { text: 'Hook viewers in the first five seconds', sourceKey: 'vid1:0', entityId: 'vid1', startMs: 0 },
        { text: 'Plain note' },
      ],
    });
    expect(items).toHaveLength(2);
    expect(items[0]).toEqual({
      id: expect.stringMatching(/^ev_[0-9a-f]{32}$/),
      projectId,
      text: 'Hook viewers in the first five seconds',
      sourceKey: 'vid1:0',
      entityId: 'vid1',
      startMs: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(Object.keys(items[1]!).sort()).toEqual(['createdAt', 'id', 'projectId', 'text', 'updatedAt']);
    expect(items[0]!.id).not.toBe(items[1]!.id);
  });

  it('updates the item in place when its sourceKey is posted again', async () => {
    const original = (
      await h.api.evidence.add({
        accountId,
        projectId,
        items: [{ text: 'old wording about thumbnails', sourceKey: 'k1', entityId: 'v1', startMs: 5 }],
      })
    ).items[0]!;
    const updated = (await h.api.evidence.add({ accountId, projectId, items: [{ text: 'new wording about titles', sourceKey: 'k1' }] }))
      .items[0]!;

    expect(updated.id).toBe(original.id);
    expect(updated.createdAt).toBe(original.createdAt);
    expect(updated.updatedAt >= original.updatedAt).toBe(true);
    expect(updated).toMatchObject({ text: 'new wording about titles', sourceKey: 'k1' });
    // Replace semantics: fields left out of the new post are gone.
    expect(updated).not.toHaveProperty('entityId');
    expect(updated).not.toHaveProperty('startMs');
    expect(await countStored()).toBe(1);

    const found = await searchUntil(h, { accountId, projectId, q: 'titles' }, 1);
    expect(found.results[0]).toMatchObject({ id: original.id, text: 'new wording about titles' });
    expect((await h.api.evidence.search({ accountId, projectId, q: 'thumbnails' })).results).toEqual([]);
  });

  it('answers a search asked again at the same index state with the same shared answer, and a new one after a write', async () => {
    await h.api.evidence.add({ accountId, projectId, items: [{ text: 'shared answer about thumbnails' }] });
    const first = await searchUntil(h, { accountId, projectId, q: 'thumbnails' }, 1);
    // Kept from the second asking on (ADR 0063): the first answer found may have been the first asking.
    const kept = await h.api.evidence.search({ accountId, projectId, q: ' thumbnails ' });
    const again = await h.api.evidence.search({ accountId, projectId, q: 'thumbnails' });

    expect(kept).toEqual(first);
    expect(again).toBe(kept);
    expect(isSharedJson(again) && Object.isFrozen(again.results[0])).toBe(true);
    await h.api.evidence.add({ accountId, projectId, items: [{ text: 'a second note about thumbnails' }] });
    const after = await searchUntil(h, { accountId, projectId, q: 'thumbnails' }, 2);
    expect(after).not.toBe(first);
    expect(first.results).toHaveLength(1);
  });

  it('answers a batch of known and new sourceKeys and plain items in request order, updating the known in place', async () => {
    const first = (
      await h.api.evidence.add({
        accountId,
        projectId,
        items: [
          { text: 'first take on hooks', sourceKey: 'hooks', startMs: 1 },
          { text: 'first take on pacing', sourceKey: 'pacing' },
        ],
      })
    ).items;
    const second = (
      await h.api.evidence.add({
        accountId,
        projectId,
        items: [
          { text: 'new take on thumbnails', sourceKey: 'thumbnails' },
          { text: 'second take on pacing', sourceKey: 'pacing', entityId: 'v2' },
          { text: 'a plain note' },
          { text: 'second take on hooks', sourceKey: 'hooks' },
        ],
      })
    ).items;

    expect(second.map((item) => item.text)).toEqual([
      'new take on thumbnails',
      'second take on pacing',
      'a plain note',
      'second take on hooks',
    ]);
    expect(second[1]).toMatchObject({ id: first[1]!.id, createdAt: first[1]!.createdAt, sourceKey: 'pacing', entityId: 'v2' });
    expect(second[3]).toMatchObject({ id: first[0]!.id, createdAt: first[0]!.createdAt, sourceKey: 'hooks' });
    expect(second[3]).not.toHaveProperty('startMs');
    expect(new Set([...first, ...second].map((item) => item.id)).size).toBe(4);
    expect(await countStored()).toBe(4);
    const stored = await h.api.evidence.get({ accountId, projectId, evidenceId: first[0]!.id });
    expect(stored).toEqual(second[3]);
  });

  it('keeps one item when the same new sourceKey is posted concurrently', async () => {
    const posts = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        h.api.evidence.add({ accountId, projectId, items: [{ text: `version ${i}`, sourceKey: 'same' }] }),
      ),
    );
    const ids = new Set(posts.map((post) => post.items[0]!.id));
    expect(ids.size).toBe(1);
    expect(await countStored()).toBe(1);
  });

  it('refuses a request that repeats a sourceKey, naming the repeated item, and stores nothing', async () => {
    const failure = await failureOf(
      h.api.evidence.add({ accountId, projectId, items: [{ text: 'a', sourceKey: 'x' }, { text: 'b' }, { text: 'c', sourceKey: 'x' }] }),
    );
    expect(failure.appCode).toBe('VALIDATION_FAILED');
    expect(failure.details).toEqual({ issues: [expect.objectContaining({ path: 'items.2.sourceKey' })] });
    expect(await countStored()).toBe(0);
  });

  it('answers PROJECT_NOT_FOUND for another account’s project, to add and to search', async () => {
    const stranger = newAccountId();
    expect((await failureOf(h.api.evidence.add({ accountId: stranger, projectId, items: [{ text: 'x' }] }))).appCode).toBe(
      'PROJECT_NOT_FOUND',
    );
    expect((await failureOf(h.api.evidence.search({ accountId: stranger, projectId, q: 'x' }))).appCode).toBe('PROJECT_NOT_FOUND');
    expect(await countStored()).toBe(0);
  });

  it('answers QUERY_REQUIRED for a missing or blank query', async () => {
    expect((await failureOf(h.api.evidence.search({ accountId, projectId, q: '   ' }))).appCode).toBe('QUERY_REQUIRED');
    expect((await failureOf(h.api.evidence.search({ accountId, projectId }))).appCode).toBe('QUERY_REQUIRED');
  });

  it('ranks the best match first, numbers results 1..n and keeps ids stable across searches', async () => {
    const { items } = await h.api.evidence.add({
      accountId,
      projectId,
      items: [
        { text: 'Cooking pasta at home with fresh tomatoes' },
        {
          text: 'YouTube channel monetization needs 1000 subscribers and 4000 watch hours',
          sourceKey: 'best',
          entityId: 'v9',
          startMs: 1200,
        },
        { text: 'Growing a YouTube channel with shorts' },
        { text: 'Monetization tips for podcasts' },
      ],
    });
    const input = { accountId, projectId, q: 'youtube monetization' };
    const first = await searchUntil(h, input, 3);

    expect(first.query).toBe('youtube monetization');
    expect(first.results[0]).toEqual({
      id: items[1]!.id,
      score: expect.any(Number),
      text: items[1]!.text,
      entityId: 'v9',
      startMs: 1200,
      sourceKey: 'best',
      index: 1,
    });
    expect(first.results.map((r) => r.index)).toEqual([1, 2, 3]);
    const scores = first.results.map((r) => r.score);
    expect(scores[0]).toBeGreaterThan(scores[1]!);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(new Set(first.results.map((r) => r.id))).toEqual(new Set([items[1]!.id, items[2]!.id, items[3]!.id]));
    expect(await h.api.evidence.search(input)).toEqual(first);
    expect((await h.api.evidence.search({ ...input, limit: 1 })).results).toEqual([first.results[0]]);
  });

  it('finds evidence only once its indexing event has run', async () => {
    // Hold the indexer back: this instance's handler waits for `release`.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const held: EventBus = {
      ...h.bus,
      subscribe: (consumer, definition, handler) =>
        h.bus.subscribe(consumer, definition, async (event, context) => {
          await released;
          await handler(event, context);
        }),
    };
    await h.module.stop();
    const replica = await h.start(held);

    const { items } = await replica.api.evidence.add({ accountId, projectId, items: [{ text: 'retention graph dips at the intro' }] });
    const input = { accountId, projectId, q: 'retention' };
    expect((await replica.api.evidence.search(input)).results).toEqual([]);

    release();
    const found = await searchUntil(replica, input, 1);
    expect(found.results[0]!.id).toBe(items[0]!.id);
  });

  it('gives a second instance over the same store the same results, including updates', async () => {
    const replica = await h.start();
    const q = 'audience retention';
    await h.api.evidence.add({
      accountId,
      projectId,
      items: [
        { text: 'Audience retention drops after the intro', sourceKey: 'a' },
        { text: 'Retention improves with pattern interrupts' },
        { text: 'Thumbnails drive click-through rate' },
      ],
    });
    const fromFirst = await searchUntil(h, { accountId, projectId, q }, 2);
    const fromReplica = await searchUntil(replica, { accountId, projectId, q }, 2);
    expect(fromReplica).toEqual(fromFirst);

    // Both caches are warm now; an update and an addition made through the replica reach both.
    await replica.api.evidence.add({
      accountId,
      projectId,
      items: [{ text: 'Audience retention rises with shorter intros', sourceKey: 'a' }, { text: 'Audience questions make good videos' }],
    });
    const updatedFirst = await searchUntil(h, { accountId, projectId, q }, 3);
    const updatedReplica = await searchUntil(replica, { accountId, projectId, q }, 3);
    expect(updatedFirst.results.map((r) => r.text)).toContain('Audience retention rises with shorter intros');
    expect(updatedReplica.results.map(({ id, text, index }) => ({ id, text, index }))).toEqual(
      updatedFirst.results.map(({ id, text, index }) => ({ id, text, index })),
    );
    for (const [i, result] of updatedReplica.results.entries()) expect(result.score).toBeCloseTo(updatedFirst.results[i]!.score, 3);
  });
});
