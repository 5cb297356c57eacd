import { channelPlaylistsSchema, listChannelPlaylistsInput } from '@vrs/contracts';
import { protectedProcedure } from '../../trpc';
import { meteredErrors } from '../errors';
import { charged, providerFieldCodes, readMode, savedUnlessRefresh } from '../providers/provider-params';

export const listChannelPlaylists = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/providers/{provider}/channels/{id}/playlists',
      operationId: 'listChannelPlaylists',
      tags: ['Channels'],
      summary: "A channel's playlists",
      description:
        "The channel's Playlists tab, ordered as `sort` asks (`newest`: date added, the default; `last-video-added`), one page at a time.",
      protect: true,
      errorResponses: [...meteredErrors, 404, 422],
    },
    fieldCodes: providerFieldCodes,
    savedVariant: savedUnlessRefresh,
  })
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
