import { streamAgentRunEventsInput } from '@vrs/contracts';
import type { Request, RequestHandler, Response } from 'express';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { createLogger, requestLogFields } from '@vrs/kit';
import type { GatewayContext } from '../context';
import { sendRouteError, toAppError } from '../errors/to-app-error';
import { protectedProcedure, router } from '../trpc';

const log = createLogger('gateway');
/** How often a followed run is asked for new events; runs persist a step every few hundred ms at most. */
const pollMs = 250;
/** A comment line this often keeps proxies from closing a quiet stream. */
const heartbeatMs = 15_000;

/** Auth, scopes, ownership (404 for someone else's run) and validation, through the same pipeline as every operation. */
const runEvents = router({
  list: protectedProcedure
    .meta({ operation: 'streamAgentRunEvents' })
    .input(streamAgentRunEventsInput)
    .query(({ ctx, input }) => ctx.services.agents.runs.events.query({ accountId: ctx.principal.accountId, ...input })),
});

/** `Last-Event-ID` (a reconnecting EventSource sends it): resume after that event. */
function resumeAfter(req: Request): number {
  const value = Number(req.get('last-event-id'));
  return Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

/**
 * `GET /v1/agent/{sessionId}/runs/{runId}/events`: Server-Sent Events of the run's status changes and
 * persisted steps. It replays what already happened, then follows the run (polling the agents
 * service, so it works whichever replica executes the run) and ends after the event that ends it.
 * The REST handler answers JSON only, hence a plain route.
 */
export function agentRunEventsRoute(contextOf: (req: Request, res: Response) => GatewayContext): RequestHandler {
  return async (req, res) => {
    const ctx = contextOf(req, res);
    const path = { sessionId: String(req.params.sessionId), runId: String(req.params.runId) };
    const caller = runEvents.createCaller(ctx);
    let afterSeq = resumeAfter(req);
    let page: Awaited<ReturnType<typeof caller.list>>;
    try {
      page = await caller.list({ ...path, afterSeq });
    } catch (error) {
      sendRouteError(req, res, error, { input: path });
      return;
    }
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    let closed = false;
    req.on('close', () => {
      closed = true;
    });
    let quietSince = Date.now();
    try {
      while (!closed) {
        for (const event of page.events) {
          res.write(`id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify({ seq: event.seq, at: event.at, ...event.data })}\n\n`);
          afterSeq = event.seq;
          quietSince = Date.now();
        }
        if (page.ended) break;
        if (page.events.length === 0) {
          if (Date.now() - quietSince >= heartbeatMs) {
            res.write(': still running\n\n');
            quietSince = Date.now();
          }
          await new Promise((resolve) => setTimeout(resolve, pollMs));
        }
        if (closed) break;
        page = await caller.list({ ...path, afterSeq });
      }
    } catch (error) {
      // The status line is gone: say so in the stream, then end it (a client may reconnect with Last-Event-ID).
      log.error({ err: error, ...path, ...requestLogFields(req) }, 'agent run event stream failed');
      res.write(`event: error\ndata: ${JSON.stringify({ code: toAppError(error).code })}\n\n`);
    }
    res.end();
  };
}

/** The stream in the OpenAPI document (it is not a procedure, so the generator cannot see it). */
export const agentRunEventsPaths = {
  '/agent/{sessionId}/runs/{runId}/events': {
    get: {
      operationId: 'streamAgentRunEvents',
      tags: ['Agents'],
      summary: "Stream an agent run's events",
      description:
        'Server-Sent Events (`text/event-stream`): every status change (`event: status`, data `{seq, at, status, outcome?, error?}`) and every persisted step (`event: step`, data `{seq, at, kind, tool?, key?, status?, credits?, elapsedMs?, route?}`) of the run, in order, each with `id: <seq>`. It replays what already happened, then follows the run, and ends after the event that ends it (`completed`, `failed` or `cancelled`). Reconnect with `Last-Event-ID` to resume after an event. 404 for an unknown run or session, or one of another account; 422 for malformed ids.',
      parameters: [
        { name: 'sessionId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
        { name: 'runId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
        { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' }, description: 'Resume after this event.' },
      ],
      security: ['bearerApiKey', 'sessionCookie', 'cliSession', 'apiKey', 'demoUser'].map((name) => ({ [name]: [] })),
      responses: {
        200: { description: 'The event stream.', content: { 'text/event-stream': { schema: { type: 'string' } } } },
        401: { description: 'Authentication required' },
        403: { description: 'Not allowed' },
        404: { description: 'Not found' },
        422: { description: 'Validation failed' },
        429: { description: 'Rate limited' },
        500: { description: 'Unexpected error' },
        503: { description: 'Service unavailable' },
      },
    },
  },
} satisfies ZodOpenApiPathsObject;
