import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEvidenceRepo } from '../repo/evidence-repo';
import { createProjectsRepo } from '../repo/projects-repo';
import type { ProviderClient } from '../provider-client';
import { createHarness, newAccountId, type Harness } from '../testing/research-harness';
import { importVideo } from './import-video';

const paragraph = (topic: string) =>
  `This part of the video explains ${topic} in detail, step by step, with the measurements used in the studio, the tools on the bench and the reasons behind each one of them.`;

/** A provider that knows one video, whose description the test changes between imports. */
function providerWith(video: { description: string }) {
  return {
    videos: { get: { query: async () => ({ result: { id: 'vid1', title: 'Espresso at home', channel: { name: 'Lab' }, ...video } }) } },
  } as unknown as ProviderClient;
}

describe('importing a video’s description', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(() => h.close());

  it('makes chunks of its content only, and a re-import of a shorter description removes the chunks it no longer has', async () => {
    const accountId = newAccountId();
    const projectId = (await h.api.projects.create({ accountId, name: 'p' })).id;
    const evidence = createEvidenceRepo(h.store);
    const projects = createProjectsRepo(h.store);
    const video = {
      description: [
        paragraph('grinding'),
        paragraph('dosing'),
        paragraph('tamping'),
        'Instagram: https://instagram.com/lab',
        '#espresso #coffee',
      ].join('\n\n'),
    };
    const deps = { provider: providerWith(video), evidence, projects, outbox: { notify: () => undefined } };
    const include = { metadata: true, transcript: false, comments: false };

    expect((await importVideo(deps, { accountId, projectId, request: { requestId: 'req_import' } }, 'vid1', include)).evidenceCount).toBe(
      4,
    );
    const keys = async () => (await h.api.evidence.list({ accountId, projectId, limit: 100 })).data.map((item) => item.sourceKey).sort();
    expect(await keys()).toEqual([
      'youtube:video:vid1:description:0',
      'youtube:video:vid1:description:1',
      'youtube:video:vid1:description:2',
      'youtube:video:vid1:metadata',
    ]);
    const texts = (await h.api.evidence.list({ accountId, projectId, limit: 100 })).data.map((item) => item.text).join('\n');
    expect(texts).not.toMatch(/instagram|#espresso/i);
    expect(texts).toContain('Espresso at home\nChannel: Lab');

    video.description = paragraph('grinding');
    expect((await importVideo(deps, { accountId, projectId, request: { requestId: 'req_import' } }, 'vid1', include)).evidenceCount).toBe(
      2,
    );
    expect(await keys()).toEqual(['youtube:video:vid1:description:0', 'youtube:video:vid1:metadata']);
    const project = await projects.findById(projectId);
    expect(project!.indexResetVersion).toBe(project!.indexVersion);
  });
});
