import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoursFromRelativeText } from '@vrs/contracts';
import { hasRecorded, projectDir, recordedDir, syntheticDir } from '@vrs/testing/upstreams/youtube/fixture-dirs';
import { startFakeYouTube, type FakeYouTube } from '@vrs/testing/upstreams/youtube/server';
import { testClient } from '@vrs/testing/youtube-replay';

type Json = Record<string, any>;

/**
 * The recorded Top page of xaQJbozY_Is with the "Newest" entry taken out of its sort menu, dated
 * after the recording so the replay prefers it: a video whose platform will not sort by time.
 */
async function topPageWithoutNewest(dir: string): Promise<void> {
  const file = path.join(recordedDir, 'newpipe-extractor/comments/xaQJbozY_Is.2_next_comments_top_page1.json');
  const wrapper = JSON.parse(await readFile(file, 'utf8')) as Json;
  const requestBody = JSON.parse(Buffer.from((wrapper.request.dataToSend as number[]).map((b) => b & 0xff)).toString('utf8')) as Json;
  const body = JSON.parse(wrapper.response.responseBody) as Json;
  const strip = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node as Json)) {
      if (key === 'subMenuItems' && Array.isArray(value)) {
        (node as Json)[key] = value.filter((item: Json) => !/newest/i.test(String(item.title)));
      } else strip(value);
    }
  };
  strip(body);
  const exchange = {
    request: { method: 'POST', url: wrapper.request.url, clientName: 'WEB', body: { continuation: requestBody.continuation } },
    response: { status: 200, recordedAt: new Date().toISOString(), body },
  };
  await mkdir(path.join(dir, 'comments'), { recursive: true });
  await writeFile(
    path.join(dir, 'comments/xaQJbozY_Is.top-without-newest.json'),
    JSON.stringify({ format: 'vrs-youtube-exchanges', note: 'test-made', exchanges: [exchange] }),
  );
}

describe.skipIf(!hasRecorded)('newest-first comments of a video YouTube will not sort by time', () => {
  let dir: string;
  let fake: FakeYouTube;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'vrs-no-newest-'));
    await topPageWithoutNewest(dir);
    fake = await startFakeYouTube({ replayDirs: [recordedDir, syntheticDir, projectDir, dir], log: () => undefined });
  });
  afterAll(async () => {
    await fake?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('collects the top comments instead, sorted by time, and says so: partial, with a warning', async () => {
    const result = await testClient(fake).getNewestComments('xaQJbozY_Is', { limit: 100 });
    expect(result.comments.length).toBeGreaterThan(0);
    expect(result.partial).toBe(true);
    expect(result.warnings.join(' ')).toMatch(/offers no newest-first order/);
    const ages = result.comments.map((c) => hoursFromRelativeText(c.publishedTimeText)!);
    expect(ages).toEqual([...ages].sort((a, b) => a - b));
    expect(result.comments[0]!.isPinned).toBe(false);
    expect(fake.unmatched()).toEqual([]);
  });

  it('a newest-first page is then the top page, sorted by time, partial with the same warning', async () => {
    const page = await testClient(fake).getComments('xaQJbozY_Is', { sort: 'newest' });
    expect(page.comments).toHaveLength(20);
    expect(page.partial).toBe(true);
    expect(page.warnings.join(' ')).toMatch(/offers no newest-first order/);
    const ages = page.comments.map((c) => hoursFromRelativeText(c.publishedTimeText)!);
    expect(ages).toEqual([...ages].sort((a, b) => a - b));
    expect(page.comments[0]!.isPinned).toBe(false);
  });
});
