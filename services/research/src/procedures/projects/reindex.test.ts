import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEvidenceRepo } from '../../repo/evidence-repo';
import { createHarness, newAccountId, type Harness } from '../../testing/research-harness';

describe('reindexing projects from the store', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(() => h.close());

  it('makes evidence whose `evidence added` event never reached an indexer searchable', async () => {
    const accountId = newAccountId();
    const project = await h.api.projects.create({ accountId, name: 'lost events' });
    const other = await h.api.projects.create({ accountId, name: 'untouched' });
    // Stored the way the add procedure stores it, but its event never reached an indexer.
    await createEvidenceRepo(h.store).add(
      project.id,
      [
        { text: 'Espresso grind size controls extraction.', sourceKey: 'note:grind' },
        { text: 'Crema forms from espresso oils.', sourceKey: 'note:crema' },
      ],
      async () => undefined,
    );
    expect((await h.api.evidence.search({ accountId, projectId: project.id, q: 'espresso' })).results).toEqual([]);

    const { projects } = await h.api.projects.reindex({ projectId: project.id });
    expect(projects).toEqual([{ projectId: project.id, outcome: 'indexed', evidence: 2, indexVersion: 1 }]);
    const found = await h.api.evidence.search({ accountId, projectId: project.id, q: 'espresso' });
    expect(found.results.map((result) => result.sourceKey).sort()).toEqual(['note:crema', 'note:grind']);

    // Every project when none is named; a second run re-marks under a newer version and finds the same.
    const all = await h.api.projects.reindex({});
    expect(all.projects).toEqual(
      expect.arrayContaining([
        { projectId: project.id, outcome: 'indexed', evidence: 2, indexVersion: 2 },
        { projectId: other.id, outcome: 'no-evidence', evidence: 0 },
      ]),
    );
    expect((await h.api.evidence.search({ accountId, projectId: project.id, q: 'espresso' })).results).toHaveLength(2);
    expect((await h.api.projects.reindex({ projectId: 'no-such-project' })).projects).toEqual([
      { projectId: 'no-such-project', outcome: 'no-project', evidence: 0 },
    ]);
  });
});
