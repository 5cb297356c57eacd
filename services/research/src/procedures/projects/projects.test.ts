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
    });
    const alicesList = await h.api.projects.list({ accountId: alice });
    expect(alicesList.hasMore).toBe(false);
    expect(alicesList.projects.map((p) => p.id).sort()).toEqual([first.id, second.id].sort());
    expect(alicesList.projects[0].createdAt >= alicesList.projects[1].createdAt).toBe(true);
    expect(await h.api.projects.list({ accountId: bob })).toEqual({ projects: [bobs], hasMore: false });
    expect(await h.api.projects.list({ accountId: newAccountId() })).toEqual({ projects: [], hasMore: false });
  });

  it('pages through every project once with limit and startingAfter', async () => {
    const alice = newAccountId();
    const created = [];
    for (let i = 0; i < 5; i++) created.push(await h.api.projects.create({ accountId: alice, name: `p${i}` }));
    await h.api.projects.create({ accountId: newAccountId(), name: 'someone else’s' });

    const seen: string[] = [];
    let startingAfter: string | undefined;
    const hasMores: boolean[] = [];
    do {
      const page = await h.api.projects.list({ accountId: alice, limit: 2, startingAfter });
      seen.push(...page.projects.map((p) => p.id));
      hasMores.push(page.hasMore);
      startingAfter = page.hasMore ? page.projects.at(-1)!.id : undefined;
    } while (startingAfter);

    expect(hasMores).toEqual([true, true, false]);
    expect(seen).toHaveLength(5);
    expect([...seen].sort()).toEqual(created.map((p) => p.id).sort());
  });

  it('refuses a cursor that is not one of the caller’s projects, without telling unknown from foreign', async () => {
    const alice = newAccountId();
    const bobs = await h.api.projects.create({ accountId: newAccountId(), name: 'b' });
    for (const startingAfter of [bobs.id, randomUUID()]) {
      const failure = await failureOf(h.api.projects.list({ accountId: alice, startingAfter }));
      expect(failure.appCode).toBe('VALIDATION_FAILED');
      expect(failure.details).toMatchObject({ issues: [{ path: 'startingAfter' }] });
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
    ]) {
      expect((await failureOf(h.api.projects.get({ accountId, projectId }))).appCode).toBe('PROJECT_NOT_FOUND');
    }
  });

  it('reports the store as healthy', async () => {
    expect(await h.api.health()).toMatchObject({ ok: true, dependencies: { store: { ok: true } } });
  });
});
