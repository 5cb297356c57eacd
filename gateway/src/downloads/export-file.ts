import { downloadExportInput } from '@vrs/contracts';
import type { Request, RequestHandler, Response } from 'express';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { AppError, createLogger, requestLogFields } from '@vrs/kit';
import type { GatewayContext } from '../context';
import { sendRouteError } from '../errors/to-app-error';
import { protectedProcedure, router } from '../trpc';

const log = createLogger('gateway');

const contentTypes = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
} as const;
const extensions = { json: 'json', csv: 'csv', markdown: 'md' } as const;

/** The gateway's auth and scope checks for the download, through the same procedure pipeline as every operation. */
const exportForDownload = router({
  get: protectedProcedure
    .meta({ operation: 'downloadExport' })
    .input(downloadExportInput)
    // The account it authorized goes along: the route reads the file's chunks for that account.
    .query(async ({ ctx, input }) => ({
      accountId: ctx.principal.accountId,
      ...(await ctx.services.research.exports.get.query({ accountId: ctx.principal.accountId, exportId: input.id })),
    })),
});

/** A filename must never carry a quote or a path, whatever the project is called. */
const safeFilePart = (text: string) =>
  text
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80) || 'project';

/**
 * `GET /v1/exports/{id}/download`: the export's file. The REST handler answers JSON only, so this is a
 * plain route; its auth and ownership check run through a gateway procedure (404 for someone else's
 * export, like an unknown one). The file is streamed from research chunk by chunk, never held whole.
 */
export function exportFileRoute(contextOf: (req: Request, res: Response) => GatewayContext): RequestHandler {
  return async (req, res) => {
    const ctx = contextOf(req, res);
    const id = String(req.params.id);
    let file: Awaited<ReturnType<ReturnType<typeof exportForDownload.createCaller>['get']>>;
    try {
      file = await exportForDownload.createCaller(ctx).get({ id });
      if (file.export.status !== 'completed') throw new AppError('EXPORT_NOT_READY', undefined, { status: file.export.status });
      if (file.expired) throw new AppError('EXPORT_EXPIRED', undefined, { expiresAt: file.export.expiresAt });
    } catch (error) {
      sendRouteError(req, res, error, { input: { id } });
      return;
    }
    const { accountId, export: record, projectName, chunkCount } = file;
    res.status(200).set({
      'Content-Type': contentTypes[record.format],
      'Content-Length': String(record.sizeBytes ?? 0),
      'Content-Disposition': `attachment; filename="${safeFilePart(projectName)}-${safeFilePart(record.id)}.${extensions[record.format]}"`,
    });
    try {
      for (let seq = 0; seq < chunkCount; seq++) {
        const { data } = await ctx.services.research.exports.readChunk.query({
          accountId,
          exportId: record.id,
          seq,
        });
        // Respect backpressure: a slow client never makes the gateway buffer the file.
        if (!res.write(data)) await new Promise((resolve) => res.once('drain', resolve));
      }
      res.end();
    } catch (error) {
      // The status line is gone; cutting the connection is the only honest signal left (the length will not match).
      log.error({ err: error, exportId: record.id, ...requestLogFields(req) }, 'export download failed mid-stream');
      res.destroy(error as Error);
    }
  };
}

/** The download in the OpenAPI document (it is not a procedure, so the generator cannot see it). */
export const exportFilePaths = {
  '/exports/{id}/download': {
    get: {
      operationId: 'downloadExport',
      tags: ['Exports'],
      summary: 'Download an export',
      description:
        "The export's file, streamed: `application/json` (`{project, exportedAt, evidence: [...], itemCount}`), `text/csv` (one row per evidence item, RFC 4180: a cell holding a quote, comma, CR or LF is quoted; every cell is the stored value exactly, a leading `=`, `+`, `-` or `@` included) or `text/markdown`, as an attachment. 404 for an unknown export or someone else's; 409 `EXPORT_NOT_READY` while it is pending (or when it failed); 410 `EXPORT_EXPIRED` once the file has passed the export's `expiresAt` (RESEARCH_EXPORT_TTL_MS after it was written) and was deleted.",
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } }],
      security: ['bearerApiKey', 'sessionCookie', 'cliSession', 'apiKey', 'demoUser'].map((name) => ({ [name]: [] })),
      responses: {
        200: {
          description: 'The export file.',
          headers: {
            'Content-Disposition': { description: 'attachment; filename="<project>-<id>.<json|csv|md>"', schema: { type: 'string' } },
          },
          content: {
            'application/json': { schema: { type: 'object' } },
            'text/csv': { schema: { type: 'string' } },
            'text/markdown': { schema: { type: 'string' } },
          },
        },
        401: { description: 'Authentication required' },
        403: { description: 'Not allowed' },
        404: { description: 'Not found' },
        409: { description: 'Not ready' },
        410: { description: 'The file has expired (EXPORT_EXPIRED)' },
        429: { description: 'Rate limited' },
      },
    },
  },
} satisfies ZodOpenApiPathsObject;
