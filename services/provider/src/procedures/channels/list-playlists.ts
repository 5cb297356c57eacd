import { listChannelPlaylistsInputSchema, providerChannelPlaylistsFetched, type ChannelPlaylists, type Served } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { ProviderDeps } from '../../provider-deps';
import { metaFromWarnings } from '../../versions/meta';
import { channelPart, continuationPart, versionKey } from '../../versions/keys';

/** The channel's Playlists tab in the sort asked for, one page at a time. */
export const listChannelPlaylists = ({ reads, youtube }: ProviderDeps) =>
  procedure.input(listChannelPlaylistsInputSchema).query(async ({ input, ctx }): Promise<Served<ChannelPlaylists>> => {
    const { channel, sort, continuation } = input;
    const { version, cached } = await reads.read({
      request: ctx,
      kind: 'channelPlaylists',
      key: versionKey(channelPart(channel), sort, continuationPart(continuation)),
      refresh: input.refresh,
      savedOnly: input.savedOnly,
      fetch: () => youtube.getChannelPlaylists(channel, { sort, continuation }),
      event: providerChannelPlaylistsFetched,
      eventData: (list) => ({ channelId: list.channelId, sort, count: list.playlists.length }),
    });
    const { warnings, ...list } = version.data;
    return { result: { ...list, meta: metaFromWarnings(version, warnings) }, cached };
  });
