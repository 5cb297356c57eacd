import { getPlaylistInputSchema, providerPlaylistFetched, type Playlist, type Served } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { ProviderDeps } from '../../provider-deps';
import { metaFromWarnings } from '../../versions/meta';
import { continuationPart, versionKey } from '../../versions/keys';

/** A playlist's facts and one page of its videos (the first, or the one a continuation names). */
export const getPlaylist = ({ reads, youtube }: ProviderDeps) =>
  procedure.input(getPlaylistInputSchema).query(async ({ input, ctx }): Promise<Served<Playlist>> => {
    const { playlistId, continuation } = input;
    const { version, cached } = await reads.read({
      request: ctx,
      kind: 'playlist',
      key: versionKey(playlistId, continuationPart(continuation)),
      refresh: input.refresh,
      savedOnly: input.savedOnly,
      fetch: () => youtube.getPlaylist(playlistId, { continuation }),
      event: providerPlaylistFetched,
      eventData: (playlist) => ({ playlistId, count: playlist.videos.length }),
    });
    const { warnings, ...playlist } = version.data;
    return { result: { ...playlist, meta: metaFromWarnings(version, warnings) }, cached };
  });
