import { describe, expect, it } from 'vitest';
import { channelPlaylistsSchema } from '../shapes/playlist';
import { hasRecorded, reportMissingShared, useReplay, testClient } from '@vrs/testing/youtube-replay';

reportMissingShared('getChannelPlaylists');

const eevblog = 'UC2DjFE7Xf11URZqWBigcVOQ';

describe.skipIf(!hasRecorded)('getChannelPlaylists over the recordings', () => {
  const fake = useReplay();

  it('reads the 2026 layout (lockupViewModel) through the handle, and its recorded continuation', async () => {
    const client = testClient(fake);
    const first = channelPlaylistsSchema.parse(await client.getChannelPlaylists('@EEVblog'));
    expect(fake.hits().byEndpoint['navigation/resolve_url']).toBe(1);
    expect(first).toMatchObject({ channelId: eevblog, sort: 'newest' });
    expect(first.playlists).toHaveLength(30);
    expect(first.playlists[0]).toMatchObject({
      type: 'playlist',
      id: 'PLvOlSehNtuHtAlWfU05ycHQdkSoE0rR20',
      title: 'uTimer Project',
      videoCount: 2,
      videoCountText: '2 videos',
      url: 'https://www.youtube.com/playlist?list=PLvOlSehNtuHtAlWfU05ycHQdkSoE0rR20',
      playUrl: expect.stringContaining('/watch?v=YCvDl0oXOSY&list=PLvOlSehNtuHtAlWfU05ycHQdkSoE0rR20'),
      isPodcast: false,
      channel: { id: eevblog },
    });
    expect(first.playlists[0]?.thumbnails[0]).toMatchObject({ width: 480, height: 270 });
    expect(first.continuation).toBeDefined();

    const second = channelPlaylistsSchema.parse(await client.getChannelPlaylists(eevblog, { continuation: first.continuation }));
    expect(second.playlists).toHaveLength(30);
    expect(second.playlists.map((p) => p.id)).toContain('PLvOlSehNtuHs5tuhiqdxQeegsLDP7TM8V');
  });

  it('reads the 2024 layout (gridPlaylistRenderer) and its recorded continuation', async () => {
    fake.select('youtube-recorded/newpipe-extractor/channel-playlists/UC2DjFE7Xf11URZqWBigcVOQ.2024-11.2_browse_playlists_tab.json');
    const client = testClient(fake);
    const first = channelPlaylistsSchema.parse(await client.getChannelPlaylists(eevblog));
    expect(first.playlists).toHaveLength(30);
    expect(first.playlists[0]).toMatchObject({
      id: 'PLvOlSehNtuHv268f0mW5m1t_hq_RVGRSA',
      title: 'Jellybean Components Series',
      videoCount: 5,
    });
    expect(first.playlists[0]?.playUrl).toMatch(/^https:\/\/www\.youtube\.com\/watch\?v=XYdmX8w8xwI&list=/);
    const second = await client.getChannelPlaylists(eevblog, { continuation: first.continuation });
    expect(second.playlists).toHaveLength(30);
  });

  it('follows the "Last video added" entry of the recorded sort menu', async () => {
    const result = await testClient(fake).getChannelPlaylists(eevblog, { sort: 'last-video-added' });
    expect(result.sort).toBe('last-video-added');
    expect(result.playlists).toHaveLength(30);
    expect(result.continuation).toBeUndefined();
    expect(fake.hits().byEndpoint.browse).toBe(2);
    expect(fake.unmatched()).toEqual([]);
  });
});
