import { getVideoInputSchema, providerVideoFetched, type Served, type Video } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { VideoRecord } from '@vrs/youtube';
import type { ProviderDeps } from '../../provider-deps';
import type { VersionDoc } from '../../repo/versions-repo';
import { metaOf } from '../../versions/meta';

/** The public video: caption URLs (`internal`) stay in the store, warnings move to `meta`. */
function toVideo(version: VersionDoc<VideoRecord>): Video {
  const { internal: _internal, partial, warnings, ...video } = version.data;
  return { ...video, meta: metaOf(version, warnings, partial) };
}

export const getVideo = ({ reads, youtube }: ProviderDeps) =>
  procedure.input(getVideoInputSchema).query(async ({ input, ctx }): Promise<Served<Video>> => {
    const { version, cached } = await reads.read({
      request: ctx,
      kind: 'video',
      key: input.videoId,
      refresh: input.refresh,
      savedOnly: input.savedOnly,
      fetch: () => youtube.getVideo(input.videoId),
      event: providerVideoFetched,
      eventData: () => ({ videoId: input.videoId }),
    });
    return { result: toVideo(version), cached };
  });
