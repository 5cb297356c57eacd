import { channelPlaylistsSchema, listChannelPlaylistsInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { meteredErrors } from '../errors';
import { charged, readMode, savedReadMeta } from '../providers/provider-params';

export const listChannelPlaylists = protectedOperation({
  method: 'GET',
  path: '/providers/{provider}/channels/{id}/playlists',
  operationId: 'listChannelPlaylists',
  tags: ['Channels'],
  summary: "A channel's playlists",
  description:
    "The channel's Playlists tab, ordered as `sort` asks (`newest`: date added, the default; `last-video-added`), one page at a time.",
  errorResponses: [...meteredErrors, 404, 422],
})
  .meta(savedReadMeta)
  .input(listChannelPlaylistsInput)
  .output(channelPlaylistsSchema)
  .query(async ({ ctx, input }) =>
    charged(
      ctx,
      await ctx.services.provider.channels.listPlaylists.query({
        channel: input.id,
        sort: input.sort,
        continuation: input.continuation,
        ...readMode(ctx, input),
      }),
    ),
  );
