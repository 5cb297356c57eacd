import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FakeYouTube } from '../../../../test/upstreams/youtube/server';
import { searchResultsSchema } from '../shapes/search';
import { hasRecorded, reportMissingShared, startReplay, testClient } from '../test-support/fake-upstream';

reportMissingShared('search');

describe.skipIf(!hasRecorded)('search over the recordings', () => {
  let fake: FakeYouTube;
  beforeAll(async () => {
    fake = await startReplay();
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('finds videos with the video filter and follows the continuation', async () => {
    const client = testClient(fake);
    const first = searchResultsSchema.parse(await client.search('cirque du soleil'));
    expect(first.videos).toHaveLength(20);
    expect(first.videos[0]).toMatchObject({
      id: 'o8Yc-v_2k-8',
      channel: { id: 'UCPiWIjwDZQo3UobMqvi4ggg', name: 'Cirque du Soleil', url: 'https://www.youtube.com/@CirqueduSoleil' },
      viewCount: 1440528,
      publishedTimeText: '1 year ago',
      durationSeconds: 3585,
    });
    expect(first.videos[0].thumbnails.length).toBeGreaterThan(0);
    expect(first.estimatedResults).toBe(2293528);
    expect(first.continuation).toBeDefined();

    const second = searchResultsSchema.parse(await client.search('cirque du soleil', { continuation: first.continuation }));
    expect(second.videos).toHaveLength(20);
    expect(second.videos[0].id).toBe('mYvs4Avhgp0');
  });

  it('keeps only the videos of unfiltered results (shelves, shorts and channels left out)', async () => {
    const client = testClient(fake);
    const first = searchResultsSchema.parse(await client.search('test', { filter: 'all' }));
    expect(first.videos.length).toBeGreaterThan(10);
    expect(first.videos.every((video) => video.id.length === 11 && video.title)).toBe(true);
    const second = await client.search('test', { filter: 'all', continuation: first.continuation });
    expect(second.videos.length).toBeGreaterThan(10);
  });
});
