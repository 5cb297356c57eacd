import { describe, expect, it } from 'vitest';
import { searchResultsSchema } from '../shapes/search';
import { hasRecorded, reportMissingShared, useReplay, testClient } from '@vrs/testing/youtube-replay';

reportMissingShared('search');

describe.skipIf(!hasRecorded)('search over the recordings', () => {
  const fake = useReplay();

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
    expect(first.videos[0]?.thumbnails.length).toBeGreaterThan(0);
    expect(first.estimatedResults).toBe(2293528);
    expect(first.continuation).toBeDefined();

    const second = searchResultsSchema.parse(await client.search('cirque du soleil', { continuation: first.continuation }));
    expect(second.videos).toHaveLength(20);
    expect(second.videos[0]?.id).toBe('mYvs4Avhgp0');
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

describe('search orders over the authored cold brew topic', () => {
  const fake = useReplay();

  /** A client whose search requests are kept as the fake receives them (body `params`). */
  function recordingClient() {
    const sent: string[] = [];
    const client = testClient(fake, {
      fetch: async (input, init) => {
        if (String(input).includes('/youtubei/v1/search')) sent.push(JSON.parse(String(init?.body)).params ?? `continuation`);
        return fetch(input, init);
      },
    });
    return { client, sent };
  }

  it("sends the search filter protobuf of each order and gets that order's page back", async () => {
    const { client, sent } = recordingClient();
    const relevance = await client.search('cold brew');
    const uploadDate = await client.search('cold brew', { sort: 'upload_date' });
    const viewCount = await client.search('cold brew', { sort: 'view_count' });
    // NewPipe's type=video filter; youtubei.js 18.1's {order 2 | 3, type: video}.
    expect(sent).toEqual(['EgIQAfABAQ%3D%3D', 'CAISAhAB', 'CAMSAhAB']);
    expect(fake.hits()).toMatchObject({ byEndpoint: { search: 3 }, unmatched: 0 });
    expect(relevance.videos[0]!.id).toBe('coldBrew001');
    // Newest first: coldBrew003 is 10 h old; most viewed first: coldBrew010 has 500,000 views.
    expect(uploadDate.videos.map((video) => video.id).slice(0, 3)).toEqual(['coldBrew003', 'coldBrew017', 'coldBrew001']);
    expect(viewCount.videos.map((video) => video.viewCount).slice(0, 3)).toEqual([500_000, 250_000, 168_000]);
    expect(uploadDate.videos).toHaveLength(20);
    expect(viewCount.videos).toHaveLength(20);
  });

  it('sends the order with the unfiltered results too, and a continuation as it is', async () => {
    const { client, sent } = recordingClient();
    // Nothing is recorded for these: the fake answers 404, after receiving the params.
    await expect(client.search('cold brew', { sort: 'upload_date', filter: 'all' })).rejects.toThrow();
    await expect(client.search('cold brew', { sort: 'view_count', filter: 'all' })).rejects.toThrow();
    expect(fake.unmatched().map((request) => request.key?.keys.params)).toEqual(['CAISAA==', 'CAMSAA==']);
    await client.search('cold brew', { sort: 'view_count', continuation: 'vrs-authored:trends:cold-brew:page-2' });
    expect(sent).toEqual(['CAISAA%3D%3D', 'CAMSAA%3D%3D', 'continuation']);
  });
});
