import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { researchEvidenceAdded, type EventData, type EventEnvelope } from '@vrs/contracts';
import { createLogger } from '@vrs/kit';
import { createEvidenceRepo } from '../repo/evidence-repo';
import { createProjectsRepo, type ProjectDoc } from '../repo/projects-repo';
import { createEvidenceSearch } from '../search/evidence-search';
import { createHarness, eventually, newAccountId, type Harness } from '../testing/research-harness';
import { createIndexEvidenceHandler } from './index-evidence';
import { eventRequestContext } from '@vrs/bus';

/** A handler's two arguments: the event and the context its subscription would give it. */
const delivery = <T>(event: EventEnvelope<T>) => [event, eventRequestContext(event)] as const;

function eventOf(data: EventData<typeof researchEvidenceAdded>): EventEnvelope<EventData<typeof researchEvidenceAdded>> {
  return { id: randomUUID(), type: researchEvidenceAdded.type, occurredAt: new Date().toISOString(), data };
}

describe('index-evidence handler', () => {
  let h: Harness;
  let accountId: string;
  let projectId: string;
  let handle: ReturnType<typeof createIndexEvidenceHandler>;
  const indexVersion = async () => (await h.store.collection<ProjectDoc>('projects').findOne({ _id: projectId }))!.indexVersion;

  beforeEach(async () => {
    h = await createHarness();
    accountId = newAccountId();
    projectId = (await h.api.projects.create({ accountId, name: 'p' })).id;
    const projects = createProjectsRepo(h.store);
    const evidence = createEvidenceRepo(h.store);
    // An indexer of its own over the instance's search engine: its writes and the instance's
    // catch-ups meet only in the engine's version compare-and-set.
    const search = createEvidenceSearch(evidence, h.search);
    handle = createIndexEvidenceHandler({ projects, evidence, search, logger: createLogger('index-evidence-test') });
  });
  afterEach(() => h.close());

  it('is idempotent: handling the same event again changes no result', async () => {
    const { items } = await h.api.evidence.add({
      accountId,
      projectId,
      items: [{ text: 'editing pace keeps viewers' }, { text: 'viewers like captions' }],
    });
    const input = { accountId, projectId, q: 'viewers' };
    const before = await eventually(async () => {
      const result = await h.api.evidence.search(input);
      return result.results.length === 2 ? result : undefined;
    });
    const versionBefore = await indexVersion();

    const event = eventOf({ accountId, projectId, evidenceIds: items.map((item) => item.id) });
    await handle(event, eventRequestContext(event));
    await handle(event, eventRequestContext(event));

    expect(await indexVersion()).toBe(versionBefore + 2);
    expect(await h.api.evidence.search(input)).toEqual(before);
    expect(await h.store.collection('evidence').countDocuments({ projectId })).toBe(2);
  });

  it('acknowledges events about a project or evidence this store does not have, without indexing', async () => {
    await expect(
      handle(...delivery(eventOf({ accountId, projectId: randomUUID(), evidenceIds: ['ev_missing'] }))),
    ).resolves.toBeUndefined();
    await expect(handle(...delivery(eventOf({ accountId, projectId, evidenceIds: ['ev_missing'] })))).resolves.toBeUndefined();
    expect(await indexVersion()).toBe(0);
  });

  it('loses no evidence when indexers race each other and searches run meanwhile', async () => {
    const evidence = createEvidenceRepo(h.store);
    const docs = await evidence.add(
      projectId,
      Array.from({ length: 12 }, (_, i) => ({ text: `race item ${i}` })),
      // No event: the test hands each item to the indexer itself.
      async () => undefined,
    );
    const searches: Promise<unknown>[] = [];
    await Promise.all(
      docs.map((doc) => {
        searches.push(h.api.evidence.search({ accountId, projectId, q: 'race' }));
        return handle(...delivery(eventOf({ accountId, projectId, evidenceIds: [doc._id] })));
      }),
    );
    await Promise.all(searches);

    expect(await indexVersion()).toBe(12);
    const result = await h.api.evidence.search({ accountId, projectId, q: 'race', limit: 100 });
    expect(result.results.map((r) => r.id).sort()).toEqual(docs.map((doc) => doc._id).sort());
  });
});
