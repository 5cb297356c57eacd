import { transcriptSchema, getVideoTranscriptInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { meteredErrors, videoErrors } from '../errors';
import { charged, readMode, savedReadMeta } from '../providers/provider-params';

export const getVideoTranscript = protectedOperation({
  method: 'GET',
  path: '/providers/{provider}/videos/{id}/transcript',
  operationId: 'getVideoTranscript',
  tags: ['Videos'],
  summary: 'Timed transcript',
  description:
    "The default source track (manual before auto-generated). With `lang`, a track in that language, or only when none exists YouTube's translation of the default track (`translatedTo`). `detail`: `text` (no timing arrays), `segments` (`[{startMs, endMs, text}]`) or `words` (default: segments plus `[{startMs, endMs, text, segment}]` where the track has word timing; otherwise `meta.warnings` says so). `format=srt|vtt` (an extension) answers the segments as a subtitle file. 404 `TRANSCRIPT_UNAVAILABLE` when the video has no captions; 409 `VIDEO_LIVE_NOT_ENDED` for a live stream or premiere not ended; restrictions answer their own codes with `details.reason` and YouTube's words in `details.platformReason`: 403 `VIDEO_AGE_RESTRICTED`, `VIDEO_PRIVATE`, `VIDEO_MEMBERS_ONLY`, `VIDEO_PAID`, `VIDEO_RESTRICTED` (unnamed), 451 `VIDEO_REGION_BLOCKED`; 503 `UPSTREAM_UNAVAILABLE` (`captions_withheld`) when YouTube withholds the caption body.",
  errorResponses: [...meteredErrors, ...videoErrors, 409, 422],
})
  .meta(savedReadMeta)
  .input(getVideoTranscriptInput)
  .output(transcriptSchema)
  .query(async ({ ctx, input }) =>
    charged(
      ctx,
      await ctx.services.provider.transcripts.get.query({
        videoId: input.id,
        lang: input.lang,
        detail: input.detail,
        ...readMode(ctx, input),
      }),
    ),
  );
