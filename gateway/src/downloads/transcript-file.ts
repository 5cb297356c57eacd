import type { Request, RequestHandler, Response } from 'express';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import type { GatewayContext } from '../context';
import { sendRouteError } from '../errors/to-app-error';
import { creditHeaders } from '../metering/meter';
import { router } from '../trpc';
import { providerFieldCodes } from '../v1/providers/provider-params';
import { getVideoTranscript } from '../v1/videos/get-video-transcript';
import { subtitleContentTypes, toSrt, toVtt } from './subtitles';

const transcriptOnly = router({ getVideoTranscript });

/** Ids are YouTube's own characters, but a filename must never carry a quote or a path. */
const safeFilePart = (text: string) => text.replace(/[^A-Za-z0-9._-]/g, '_');

/**
 * `GET /v1/providers/{provider}/videos/{id}/transcript?format=srt|vtt`: the REST handler answers JSON
 * only, so this route in front of it answers the subtitle file, through the getVideoTranscript
 * procedure itself: auth, scopes, metering and validation are the operation's own.
 */
export function transcriptFileRoute(contextOf: (req: Request, res: Response) => GatewayContext): RequestHandler {
  return async (req, res, next) => {
    const format = req.query.format;
    if (format !== 'srt' && format !== 'vtt') return next();
    const ctx = contextOf(req, res);
    // A file carries the segments, whatever `detail` asked for.
    const input = { ...req.query, ...req.params, detail: 'segments' };
    try {
      const transcript = await transcriptOnly.createCaller(ctx).getVideoTranscript(input as never);
      const body = (format === 'srt' ? toSrt : toVtt)(transcript.segments ?? []);
      const language = transcript.translatedTo?.languageCode ?? transcript.track.languageCode;
      res
        .status(200)
        .set({
          ...creditHeaders(ctx.credits),
          'Content-Type': subtitleContentTypes[format],
          'Content-Disposition': `attachment; filename="${safeFilePart(`${transcript.videoId}.${language}.${format}`)}"`,
        })
        .send(body);
    } catch (error) {
      sendRouteError(req, res, error, { input, fieldCodes: providerFieldCodes }, creditHeaders(ctx.credits));
    }
  };
}

/** What this route adds to the getVideoTranscript operation in the OpenAPI document. */
export const transcriptFilePaths = {
  '/providers/{provider}/videos/{id}/transcript': {
    get: {
      responses: {
        200: {
          content: {
            'application/x-subrip': { schema: { type: 'string', description: 'With `format=srt`: a SubRip file of the segments.' } },
            'text/vtt': { schema: { type: 'string', description: 'With `format=vtt`: a WebVTT file of the segments.' } },
          },
        },
      },
    },
  },
} satisfies ZodOpenApiPathsObject;
