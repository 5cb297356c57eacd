import { describe, expect, it, vi } from 'vitest';
import { loadRecordings } from '@vrs/testing/upstreams/youtube/recordings';
import { parseReplayDirs } from '@vrs/testing/upstreams/youtube/replay-dirs';
import { hasRecorded, reportMissingShared, testClient, useReplay } from '@vrs/testing/youtube-replay';
import { defaultClientOptions } from '../client';
import { createUpstream } from '../transport/upstream';
import { commentsSectionToken, createThreadPageReader, openNewestPage, parseThreadPage, peekThreadPage } from './comments-pages';

reportMissingShared('comments read-ahead');

describe.skipIf(!hasRecorded)('newest-first pages read ahead', () => {
  const fake = useReplay();

  it('guesses from every recorded continuation answer the next token and thread count its parse finds', () => {
    const answers = loadRecordings(parseReplayDirs()).recordings.filter(
      (recording) => recording.key.endpoint === 'next' && recording.key.keys.continuation && recording.status === 200,
    );
    let withNext = 0;
    for (const answer of answers) {
      const parsed = parseThreadPage(JSON.parse(answer.body) as Record<string, unknown>);
      const guess = { threads: parsed.threads.length, ...(parsed.continuation ? { continuation: parsed.continuation } : {}) };
      // As the fake serves it (its recorded text) and as YouTube sends it (compact).
      expect(peekThreadPage(Buffer.from(answer.body)), answer.id).toEqual(guess);
      expect(peekThreadPage(Buffer.from(JSON.stringify(JSON.parse(answer.body)))), answer.id).toEqual(guess);
      if (parsed.continuation) withNext += 1;
    }
    // Top pages, newest pages, reply pages: pages that lead on and pages that end a walk.
    expect(answers.length).toBeGreaterThanOrEqual(5);
    expect(withNext).toBeGreaterThan(0);
    expect(withNext).toBeLessThan(answers.length);
  });

  it('asks for the next page when a page arrives, and answers the walk from that early request', async () => {
    const upstream = createUpstream({ ...defaultClientOptions, origin: fake.url, retries: 0 });
    const read = createThreadPageReader(upstream, () => true);
    const sectionToken = await commentsSectionToken(upstream, 'xaQJbozY_Is');
    const { page } = await openNewestPage(upstream, sectionToken as string, read);
    expect(page.continuation).toBeDefined();
    // The watch page's /next, the Top page, the Newest page, and the page after it, which nobody read yet.
    await vi.waitFor(() => expect(fake.hits().byEndpoint.next).toBe(4));
    const next = await read(page.continuation as string);
    expect(next.threads).toHaveLength(10);
    expect(fake.hits().byEndpoint.next).toBe(4);
  });

  it('asks for each page of a whole walk once', async () => {
    const collection = await testClient(fake).getNewestComments('xaQJbozY_Is', { limit: 100 });
    expect(collection).toMatchObject({ pagesFetched: 3, topLevelCount: 20 });
    expect(fake.hits().byEndpoint.next).toBe(4);
  });
});
