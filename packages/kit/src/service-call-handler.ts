import type { IncomingMessage, ServerResponse } from 'node:http';
import { callTRPCProcedure, getErrorShape, getTRPCErrorFromUnknown, TRPCError, type AnyRouter } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { definitionOf, errorConfigOf, proceduresOf } from './trpc-internals';

const basePath = '/trpc/';

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseInput(text: string | null): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new TRPCError({ code: 'PARSE_ERROR', message: 'The input is not JSON.', cause });
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * Serves one unbatched call in tRPC's HTTP protocol (what the services' own clients send: `GET
 * /trpc/<path>?input=<json>` for a query, `POST /trpc/<path>` with the JSON input for a mutation)
 * straight through tRPC's procedure caller, answering `{result: {data}}` or `{error}` with tRPC's
 * status. Anything else (a batch, a subscription, a method the procedure does not take, an unknown
 * path) gets `false` and goes to tRPC's adapter, whose Fetch Request and Response per call cost more
 * than an internal call's own work.
 */
export function createServiceCallHandler<TContext extends object>(router: AnyRouter, createContext: (req: IncomingMessage) => TContext) {
  const procedures = proceduresOf(router);
  const config = errorConfigOf(router);
  return (req: IncomingMessage, res: ServerResponse): Promise<void> | false => {
    const url = req.url ?? '';
    if (!url.startsWith(basePath)) return false;
    const queryStart = url.indexOf('?');
    const path = url.slice(basePath.length, queryStart === -1 ? undefined : queryStart);
    const procedure = Object.hasOwn(procedures, path) ? procedures[path] : undefined;
    const type = procedure && definitionOf(procedure).type;
    if (!procedure || !((req.method === 'GET' && type === 'query') || (req.method === 'POST' && type === 'mutation'))) return false;
    const query = new URLSearchParams(queryStart === -1 ? '' : url.slice(queryStart + 1));
    if (query.has('batch')) return false;
    return (async () => {
      const ctx = createContext(req);
      let input: unknown;
      try {
        input = parseInput(req.method === 'GET' ? query.get('input') : await readBody(req));
        const data = await callTRPCProcedure({ router, path, getRawInput: async () => input, ctx, type, signal: undefined, batchIndex: 0 });
        send(res, 200, { result: { data } });
      } catch (cause) {
        const error = getTRPCErrorFromUnknown(cause);
        send(res, getHTTPStatusCodeFromError(error), {
          error: getErrorShape({ config, error, type, path, input, ctx }),
        });
      }
    })();
  };
}
