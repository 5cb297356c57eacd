import { describe, expect, inject, it } from 'vitest';
import { apiClient, type ApiResponse } from '@vrs/testing/api-client';
import { fakeYouTubeControl } from '@vrs/testing/upstreams/youtube/control-client';
import { hasRecorded, reportMissingShared } from '@vrs/testing/upstreams/youtube/fixture-dirs';

reportMissingShared('provider channels, playlists and search (e2e)');

const gatewayUrl = inject('gatewayUrl');
const youtube = fakeYouTubeControl(inject('youtubeUpstreamUrl'));
const charged = (response: ApiResponse) => Number(response.headers.get('x-credits-charged'));
const eevblog = 'UC2DjFE7Xf11URZqWBigcVOQ';
const top150 = 'PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr';
const next = (continuation: string) => `continuation=${encodeURIComponent(continuation)}`;

/** Makes recorded answers win over newer ones for the duration of `run`, then gives them back. */
async function withSelected<T>(ids: string[], run: () => Promise<T>): Promise<T> {
  for (const id of ids) await youtube.select(id);
  try {
    return await run();
  } finally {
    for (const id of ids) await youtube.unselect(id);
  }
}

function expectError(response: ApiResponse, status: number, code: string, details: Record<string, unknown>) {
  expect(response.status, response.text).toBe(status);
  expect(response.body.error).toMatchObject({ code, details });
}

describe.skipIf(!hasRecorded)('channels, playlists and search over the recordings', () => {
  const api = apiClient(gatewayUrl, { 'x-demo-user': `provider-channels-${Date.now()}` });

  describe('channels', () => {
    it('inspects a channel by handle, saying in meta what it could not get', async () => {
      // refresh: other files on the shared stack may have read this channel first; this read is fresh whatever the order.
      const response = await api('GET', '/v1/providers/youtube/channels/@EEVblog?refresh=true');
      expect(response.status, response.text).toBe(200);
      expect(charged(response)).toBe(2);
      expect(response.body).toMatchObject({
        id: eevblog,
        title: 'EEVblog',
        handle: '@EEVblog',
        url: 'https://www.youtube.com/@EEVblog',
        subscriberCount: 988_000,
        videoCount: 2_100,
        recentUploads: [],
        meta: { partial: true, warnings: ['The Videos tab listed no uploads.'] },
      });
      expect(response.body.thumbnails.length).toBeGreaterThan(0);
      // Handles are case-insensitive: the same saved version answers.
      const again = await api('GET', '/v1/providers/youtube/channels/@eevblog');
      expect(charged(again)).toBe(1);
      expect(again.body.meta.fetchedAt).toBe(response.body.meta.fetchedAt);
    });

    it('answers removed and unknown channels with 404 CHANNEL_NOT_FOUND', async () => {
      const removed = await api('GET', '/v1/providers/youtube/channels/UCoaO4U_p7G7AwalqSbGCZOA');
      expectError(removed, 404, 'CHANNEL_NOT_FOUND', {
        reason: 'not_found',
        platformReason: 'This channel was removed because it violated our Community Guidelines.',
      });
      expectError(await api('GET', '/v1/providers/youtube/channels/DOESNT-EXIST'), 404, 'CHANNEL_NOT_FOUND', { reason: 'not_found' });
    });
  });

  describe('channel playlists', () => {
    it('lists the 2026 layout (lockupViewModel) newest first, and the page its continuation names', async () => {
      const first = await api('GET', '/v1/providers/youtube/channels/@EEVblog/playlists?refresh=true');
      expect(first.status, first.text).toBe(200);
      expect(charged(first)).toBe(2);
      expect(first.body).toMatchObject({ channelId: eevblog, sort: 'newest', meta: { partial: false, warnings: [] } });
      expect(first.body.playlists).toHaveLength(30);
      expect(first.body.playlists[0]).toMatchObject({
        type: 'playlist',
        id: 'PLvOlSehNtuHtAlWfU05ycHQdkSoE0rR20',
        title: 'uTimer Project',
        videoCount: 2,
        videoCountText: '2 videos',
        isPodcast: false,
        url: 'https://www.youtube.com/playlist?list=PLvOlSehNtuHtAlWfU05ycHQdkSoE0rR20',
        playUrl: expect.stringContaining('/watch?v=YCvDl0oXOSY&list=PLvOlSehNtuHtAlWfU05ycHQdkSoE0rR20'),
        channel: { id: eevblog },
      });
      const second = await api('GET', `/v1/providers/youtube/channels/${eevblog}/playlists?${next(first.body.continuation)}`);
      expect(second.status, second.text).toBe(200);
      expect(second.body.playlists).toHaveLength(30);
      expect(second.body.playlists.map((p: { id: string }) => p.id)).toContain('PLvOlSehNtuHs5tuhiqdxQeegsLDP7TM8V');
    });

    it('follows the "Last video added" entry of the recorded sort menu', async () => {
      const response = await api('GET', `/v1/providers/youtube/channels/${eevblog}/playlists?sort=last-video-added`);
      expect(response.status, response.text).toBe(200);
      expect(response.body.sort).toBe('last-video-added');
      expect(response.body.playlists).toHaveLength(30);
      expect(response.body.continuation).toBeUndefined();
    });

    it('reads the 2024 layout (gridPlaylistRenderer) of the same tab and its continuation, on refresh', async () => {
      await withSelected(
        ['youtube-recorded/newpipe-extractor/channel-playlists/UC2DjFE7Xf11URZqWBigcVOQ.2024-11.2_browse_playlists_tab.json'],
        async () => {
          const first = await api('GET', `/v1/providers/youtube/channels/${eevblog}/playlists?refresh=true`);
          expect(charged(first)).toBe(2);
          expect(first.body.playlists).toHaveLength(30);
          expect(first.body.playlists[0]).toMatchObject({
            id: 'PLvOlSehNtuHv268f0mW5m1t_hq_RVGRSA',
            title: 'Jellybean Components Series',
            videoCount: 5,
          });
          expect(first.body.playlists[0].playUrl).toMatch(/^https:\/\/www\.youtube\.com\/watch\?v=XYdmX8w8xwI&list=/);
          const second = await api('GET', `/v1/providers/youtube/channels/${eevblog}/playlists?${next(first.body.continuation)}`);
          expect(second.body.playlists).toHaveLength(30);
        },
      );
    });
  });

  describe('playlists', () => {
    it('reads the 2026 layout: facts, the first 100 videos and the page the continuation names', async () => {
      // A refresh, so another suite having saved this playlist on the shared stack doesn't make it a cached read.
      const first = await api('GET', `/v1/providers/youtube/playlists/${top150}?refresh=true`);
      expect(first.status, first.text).toBe(200);
      expect(charged(first)).toBe(2);
      expect(first.body).toMatchObject({
        type: 'playlist',
        id: top150,
        title: "TOP 150 Songs 2026 - List of Best Music 2026 (Today's Hits Playlist)",
        channel: { id: 'UC-7fxYMkY5sTDKmmsC3p5iA', name: 'Redlist - Chart Playlists' },
        videoCount: 150,
        estimatedTotal: 150,
        updatedTimeText: 'Last updated on 13 Jan 2026',
        meta: { partial: false, warnings: [] },
      });
      expect(first.body.videos).toHaveLength(100);
      expect(first.body.videos[0]).toMatchObject({
        type: 'video',
        id: 'u2ah9tWTkmk',
        durationSeconds: 187,
        durationText: '3:07',
        isLive: false,
      });
      const second = await api('GET', `/v1/providers/youtube/playlists/${top150}?${next(first.body.continuation)}`);
      expect(second.body.videos).toHaveLength(50);
      expect(second.body.continuation).toBeUndefined();
      expect(new Set([...first.body.videos, ...second.body.videos].map((v: { id: string }) => v.id)).size).toBe(150);
      const reused = await api('GET', `/v1/providers/youtube/playlists/${top150}`);
      expect(charged(reused)).toBe(1);
    });

    it('reads the 2024 layout of the same playlist on refresh, down to its recorded continuation', async () => {
      const recordings = [
        'youtube-recorded/newpipe-extractor/playlist/PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr.2024-11.1_browse_full.json',
        'youtube/playlist/2024-first-pages.json#0',
      ];
      await withSelected(recordings, async () => {
        const first = await api('GET', `/v1/providers/youtube/playlists/${top150}?refresh=true`);
        expect(first.body).toMatchObject({
          title: "TOP 150 Songs 2024 - List of Best Music 2024 (Today's Hits Playlist)",
          videoCount: 150,
          updatedTimeText: 'Updated 3 days ago',
        });
        expect(first.body.videos).toHaveLength(100);
        expect(first.body.videos[0].id).toBe('kPa7bsKwL-c');
        const second = await api('GET', `/v1/providers/youtube/playlists/${top150}?${next(first.body.continuation)}`);
        expect(second.body.videos).toHaveLength(50);
      });
    });

    it.each([
      ['INVALID_ID', 'This playlist type is unviewable.'],
      ['PL11111111111111111111111111111111', 'The playlist does not exist.'],
    ])("answers %s with 404 PLAYLIST_NOT_FOUND and YouTube's words", async (id, platformReason) => {
      expectError(await api('GET', `/v1/providers/youtube/playlists/${id}`), 404, 'PLAYLIST_NOT_FOUND', {
        reason: 'not_found',
        platformReason,
      });
    });
  });

  describe('search', () => {
    it('finds videos and follows the continuation, always asking YouTube', async () => {
      const first = await api('GET', '/v1/providers/youtube/search?q=cirque%20du%20soleil');
      expect(first.status, first.text).toBe(200);
      expect(charged(first)).toBe(2);
      expect(first.body).toMatchObject({ query: 'cirque du soleil', estimatedResults: 2293528, meta: { partial: false } });
      expect(first.body.videos).toHaveLength(20);
      expect(first.body.videos[0]).toMatchObject({
        id: 'o8Yc-v_2k-8',
        channel: { id: 'UCPiWIjwDZQo3UobMqvi4ggg', name: 'Cirque du Soleil' },
        viewCount: 1440528,
        publishedTimeText: '1 year ago',
        durationSeconds: 3585,
      });
      const second = await api('GET', `/v1/providers/youtube/search?q=cirque%20du%20soleil&${next(first.body.continuation)}`);
      expect(second.body.videos[0].id).toBe('mYvs4Avhgp0');
      const again = await api('GET', '/v1/providers/youtube/search?q=cirque%20du%20soleil');
      expect(charged(again)).toBe(2);
      expect(again.body.meta.fetchedAt > first.body.meta.fetchedAt).toBe(true);
    });
  });
});
