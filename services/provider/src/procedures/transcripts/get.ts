import { getTranscriptInputSchema, providerTranscriptFetched, type Served, type Transcript, type TranscriptDetail } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { Transcript as FetchedTranscript, VideoRecord } from '@vrs/youtube';
import type { ProviderDeps } from '../../provider-deps';
import type { VersionDoc } from '../../repo/versions-repo';
import { metaOf } from '../../versions/meta';
import { versionKey } from '../../versions/keys';

/**
 * The saved transcript always has every timing there is; `detail` only decides what is shown.
 * The adapter's word-timing warning concerns words, so it is shown only where words were asked for.
 */
function toTranscript(version: VersionDoc<FetchedTranscript>, detail: TranscriptDetail): Transcript {
  const { segments, words, warnings, ...rest } = version.data;
  const base = { ...rest, ...(detail === 'text' ? {} : { segments }) };
  if (detail !== 'words') return { ...base, meta: metaOf(version, [], false) };
  return { ...base, ...(words ? { words } : {}), meta: metaOf(version, warnings, false) };
}

export const getTranscript = ({ reads, versions, youtube }: ProviderDeps) =>
  procedure.input(getTranscriptInputSchema).query(async ({ input, ctx }): Promise<Served<Transcript>> => {
    const { videoId, lang } = input;
    const { version, cached } = await reads.read({
      request: ctx,
      kind: 'transcript',
      key: versionKey(videoId, lang ?? 'default'),
      refresh: input.refresh,
      savedOnly: input.savedOnly,
      fetch: async () => {
        // A saved video whose signed caption URLs have not expired saves the player request.
        const video = (await versions.latest<VideoRecord>('video', videoId))?.data;
        return youtube.getTranscript(videoId, { lang, video });
      },
      event: providerTranscriptFetched,
      eventData: (transcript) => ({
        videoId,
        ...(lang ? { lang } : {}),
        trackId: transcript.track.id,
        languageCode: transcript.track.languageCode,
        ...(transcript.translatedTo ? { translatedTo: transcript.translatedTo.languageCode } : {}),
      }),
    });
    return { result: toTranscript(version, input.detail), cached };
  });
