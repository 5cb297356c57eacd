import { describe, expect, it } from 'vitest';
import { playlistSchema } from '../shapes/playlist';
import { hasRecorded, reportMissingShared, useReplay, testClient } from '@vrs/testing/youtube-replay';

reportMissingShared('getPlaylist');

const top150 = 'PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr';

describe.skipIf(!hasRecorded)('getPlaylist over the recordings', () => {
  const fake = useReplay();

  it('reads the 2026 layout: masked header, then videos through the built token, then the recorded continuation', async () => {
    const client = testClient(fake);
    const first = playlistSchema.parse(await client.getPlaylist(top150));
    expect(first).toMatchObject({
      id: top150,
      title: "TOP 150 Songs 2026 - List of Best Music 2026 (Today's Hits Playlist)",
      channel: { id: 'UC-7fxYMkY5sTDKmmsC3p5iA', name: 'Redlist - Chart Playlists' },
      videoCount: 150,
      estimatedTotal: 150,
      videoCountText: '150 videos',
      updatedTimeText: 'Last updated on 13 Jan 2026',
      warnings: [],
    });
    expect(first.videos).toHaveLength(100);
    expect(first.videos[0]).toMatchObject({
      type: 'video',
      id: 'u2ah9tWTkmk',
      title: 'Alex Warren - Ordinary (Official Video)',
      channel: { id: 'UCX2Pm1JoWF3chsVOR9e1hbQ', name: 'Alex Warren' },
      durationSeconds: 187,
      durationText: '3:07',
      url: 'https://www.youtube.com/watch?v=u2ah9tWTkmk',
      isLive: false,
    });
    expect(first.videos[0]?.viewCount).toBeGreaterThan(1_000_000);
    expect(first.videos[0]?.publishedTimeText).toMatch(/ago$/);
    expect(first.continuation).toBeDefined();

    const second = playlistSchema.parse(await client.getPlaylist(top150, { continuation: first.continuation }));
    expect(second.videos).toHaveLength(50);
    expect(second.videos[0]?.id).toBe('aQMKAZpcynA');
    expect(second.continuation).toBeUndefined();
    expect(new Set([...first.videos, ...second.videos].map((v) => v.id)).size).toBe(150);
  });

  it('reads the 2024 layout of the same playlist, down to its recorded continuation', async () => {
    fake.select('youtube-recorded/newpipe-extractor/playlist/PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr.2024-11.1_browse_full.json');
    fake.select('youtube/playlist/2024-first-pages.json#0');
    const client = testClient(fake);
    const first = playlistSchema.parse(await client.getPlaylist(top150));
    expect(first).toMatchObject({
      title: "TOP 150 Songs 2024 - List of Best Music 2024 (Today's Hits Playlist)",
      videoCount: 150,
      updatedTimeText: 'Updated 3 days ago',
    });
    expect(first.videos).toHaveLength(100);
    expect(first.videos[0]?.id).toBe('kPa7bsKwL-c');
    const second = await client.getPlaylist(top150, { continuation: first.continuation });
    expect(second.videos).toHaveLength(50);
    expect(second.continuation).toBeUndefined();
  });

  it('reads a small 2024 playlist without continuation', async () => {
    const playlist = playlistSchema.parse(await testClient(fake).getPlaylist('PLXJg25X-OulsVsnvZ7RVtSDW-id9_RzAO'));
    expect(playlist).toMatchObject({
      title: 'Top 10 Copyright Free Music Tracks 2021',
      videoCount: 17,
      channel: { name: 'Audio Lounge Music' },
    });
    expect(playlist.videos).toHaveLength(17);
    expect(playlist.continuation).toBeUndefined();
  });

  it.each([
    ['INVALID_ID', 'This playlist type is unviewable.'],
    ['PL11111111111111111111111111111111', 'The playlist does not exist.'],
  ])('maps the recorded alert for %s to PLAYLIST_NOT_FOUND', async (id, platformReason) => {
    await expect(testClient(fake).getPlaylist(id)).rejects.toMatchObject({
      code: 'PLAYLIST_NOT_FOUND',
      reason: 'not_found',
      platformReason,
      transient: false,
    });
  });
});
