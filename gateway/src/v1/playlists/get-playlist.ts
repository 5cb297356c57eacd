import { playlistSchema, getPlaylistInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { meteredErrors } from '../errors';
import { charged, readMode, savedReadMeta } from '../providers/provider-params';

export const getPlaylist = protectedOperation({
  method: 'GET',
  path: '/providers/{provider}/playlists/{id}',
  operationId: 'getPlaylist',
  tags: ['Playlists'],
  summary: 'Inspect a playlist',
  description:
    'The playlist with one page of its videos, `estimatedTotal`, and `continuation` while more pages exist (an extension: pass it back for the next page). 404 `PLAYLIST_NOT_FOUND` for unknown or removed playlists.',
  errorResponses: [...meteredErrors, 404, 422],
})
  .meta(savedReadMeta)
  .input(getPlaylistInput)
  .output(playlistSchema)
  .query(async ({ ctx, input }) =>
    charged(
      ctx,
      await ctx.services.provider.playlists.get.query({ playlistId: input.id, continuation: input.continuation, ...readMode(ctx, input) }),
    ),
  );
