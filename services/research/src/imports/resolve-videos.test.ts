import { describe, expect, it } from 'vitest';
import type { ProviderClient } from '../provider-client';
import { resolveVideos } from './resolve-videos';

const meta = (warnings: string[] = []) => ({
  provider: 'youtube',
  source: 'test',
  fetchedAt: '2026-01-01T00:00:00.000Z',
  partial: warnings.length > 0,
  warnings,
});
const videos = (...ids: string[]) => ids.map((id) => ({ id }));
const calls: unknown[] = [];

// The provider's answers as the research service receives them (only the fields resolution reads).
const provider = {
  playlists: {
    get: {
      query: async (input: unknown) => {
        calls.push(['playlist', input]);
        return { result: { videos: videos('a', 'b', 'a', 'c'), meta: meta() } };
      },
    },
  },
  channels: {
    get: {
      query: async (input: unknown) => {
        calls.push(['channel', input]);
        return { result: { recentUploads: videos('u1', 'u2'), meta: meta(['The Videos tab listed 2 uploads.']) } };
      },
    },
  },
  videos: {
    search: {
      query: async (input: unknown) => {
        calls.push(['search', input]);
        return { result: { videos: videos('s1', 's2', 's3'), meta: meta() } };
      },
    },
  },
} as unknown as ProviderClient;

describe('resolveVideos', () => {
  it("lists each source's videos once, in order, up to its limit, with the provider's warnings", async () => {
    expect(await resolveVideos(provider, { type: 'video', id: 'v1' } as never)).toEqual({ videoIds: ['v1'], warnings: [] });
    expect(await resolveVideos(provider, { type: 'videos', ids: ['x', 'y', 'x'] } as never)).toEqual({
      videoIds: ['x', 'y'],
      warnings: [],
    });
    expect(await resolveVideos(provider, { type: 'playlist', id: 'PL1', limit: 10 } as never)).toEqual({
      videoIds: ['a', 'b', 'c'],
      warnings: [],
    });
    expect(await resolveVideos(provider, { type: 'playlist', id: 'PL1', limit: 2 } as never)).toEqual({
      videoIds: ['a', 'b'],
      warnings: [],
    });
    expect(await resolveVideos(provider, { type: 'channel', id: '@someone', limit: 5 } as never)).toEqual({
      videoIds: ['u1', 'u2'],
      warnings: ['The Videos tab listed 2 uploads.'],
    });
    expect(await resolveVideos(provider, { type: 'search', query: 'cold brew', limit: 2 } as never)).toEqual({
      videoIds: ['s1', 's2'],
      warnings: [],
    });
    expect(calls).toEqual([
      ['playlist', { playlistId: 'PL1' }],
      ['playlist', { playlistId: 'PL1' }],
      ['channel', { channel: '@someone' }],
      ['search', { q: 'cold brew' }],
    ]);
  });
});
