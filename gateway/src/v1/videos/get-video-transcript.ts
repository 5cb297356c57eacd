import { z } from 'zod';
import { languageCodeSchema, providerParam, transcriptDetailSchema, transcriptSchema } from '@vrs/contracts';
import { protectedProcedure } from '../../trpc';
import { meteredErrors } from '../errors';
import { charged, providerFieldCodes, refreshParam, videoIdParam, readMode, savedUnlessRefresh } from '../providers/provider-params';

export const getVideoTranscript = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/providers/{provider}/videos/{id}/transcript',
      operationId: 'getVideoTranscript',
      tags: ['Videos'],
      summary: 'Timed transcript',
      description:
        "The default source track (manual before auto-generated). With `lang`, a track in that language, or only when none exists YouTube's translation of the default track (`translatedTo`). `detail`: `text` (no timing arrays), `segments` (`[{startMs, endMs, text}]`) or `words` (default: segments plus `[{startMs, endMs, text, segment}]` where the track has word timing; otherwise `meta.warnings` says so). `format=srt|vtt` (an extension) answers the segments as a subtitle file. 404 `TRANSCRIPT_UNAVAILABLE` when the video has no captions; 503 `UPSTREAM_UNAVAILABLE` (`captions_withheld`) when YouTube withholds the caption body.",
      protect: true,
      errorResponses: [...meteredErrors, 404, 422],
    },
    auth: { scopes: ['data:read'] },
    fieldCodes: providerFieldCodes,
    savedVariant: savedUnlessRefresh,
  })
  .input(
    z.object({
      provider: providerParam(),
      id: videoIdParam(),
      refresh: refreshParam(),
      lang: languageCodeSchema.optional().describe('Wanted transcript language (e.g. `en`, `pt-BR`).'),
      detail: transcriptDetailSchema.default('words').describe('`text`, `segments` or `words` (default).'),
      format: z
        .enum(['json', 'srt', 'vtt'])
        .default('json')
        .describe('Extension: `srt` or `vtt` answer a subtitle file of the segments instead of JSON.'),
    }),
  )
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
