import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, failureOf, newAccountId, type Harness } from '../../testing/research-harness';

describe('projects', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(() => h.close());

  it('creates a project with a UUID and lists only the caller’s projects, newest first', async () => {
    const alice = newAccountId();
    const bob = newAccountId();
    const first = await h.api.projects.create({ accountId: alice, name: '  Shorts research ' });
    const second = await h.api.projects.create({ accountId: alice, name: 'Podcasts' });
    const bobs = await h.api.projects.create({ accountId: bob, name: 'Bob’s' });

    expect(first).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      name: 'Shorts research',
      createdAt: expect.any(String),
      updatedAt: first.createdAt,
    });
    const alicesList = await h.api.projects.list({ accountId: alice });
    expect(alicesList.hasMore).toBe(false);
    expect(alicesList.data.map((p) => p.id)).toEqual([second.id, first.id]);
    expect(await h.api.projects.list({ accountId: bob })).toEqual({ data: [bobs], hasMore: false, nextCursor: null });
    expect(await h.api.projects.list({ accountId: newAccountId() })).toEqual({ data: [], hasMore: false, nextCursor: null });
  });

  it('pages through every project once with limit and nextCursor, even when the last item seen is deleted meanwhile', async () => {
    const alice = newAccountId();
    const created = [];
    for (let i = 0; i < 5; i++) created.push(await h.api.projects.create({ accountId: alice, name: `p${i}` }));
    await h.api.projects.create({ accountId: newAccountId(), name: 'someone else’s' });

    const seen: string[] = [];
    const hasMores: boolean[] = [];
    let cursor: string | undefined;
    do {
      const page = await h.api.projects.list({ accountId: alice, limit: 2, cursor });
      seen.push(...page.data.map((p) => p.id));
      hasMores.push(page.hasMore);
      expect(page.nextCursor === null).toBe(!page.hasMore);
      // The cursor is a position, not an item: removing the item it ends on does not break it.
      if (page.hasMore) await h.api.projects.delete({ accountId: alice, projectId: page.data.at(-1)!.id });
      cursor = page.nextCursor ?? undefined;
    } while (cursor);

    expect(hasMores).toEqual([true, true, false]);
    expect(seen).toEqual(created.map((p) => p.id).reverse());
  });

  it('refuses a cursor that is not one this list returned with INVALID_CURSOR', async () => {
    const alice = newAccountId();
    await h.api.projects.create({ accountId: alice, name: 'a' });
    await h.api.projects.create({ accountId: alice, name: 'b' });
    const { nextCursor } = await h.api.projects.list({ accountId: alice, limit: 1 });
    expect(nextCursor).toEqual(expect.any(String));
    const otherList = Buffer.from(JSON.stringify({ l: 'evidence', t: new Date().toISOString(), i: 'x' })).toString('base64url');
    for (const cursor of ['not-a-cursor', randomUUID(), otherList]) {
      expect((await failureOf(h.api.projects.list({ accountId: alice, cursor }))).appCode).toBe('INVALID_CURSOR');
    }
  });

  it('gets the caller’s project; another account’s, an unknown id and a non-UUID are all PROJECT_NOT_FOUND', async () => {
    const alice = newAccountId();
    const project = await h.api.projects.create({ accountId: alice, name: 'mine' });
    expect(await h.api.projects.get({ accountId: alice, projectId: project.id })).toEqual(project);

    for (const [accountId, projectId] of [
      [newAccountId(), project.id],
      [alice, randomUUID()],
      [alice, 'not-a-uuid'],
    ] as const) {
      expect((await failureOf(h.api.projects.get({ accountId, projectId }))).appCode).toBe('PROJECT_NOT_FOUND');
    }
  });

  it('reports the store as healthy', async () => {
    expect(await h.api.health()).toMatchObject({ ok: true, dependencies: { store: { ok: true } } });
  });
});
