import {
  createTRPCClient,
  httpLink,
  TRPCClientError,
  type TRPCClient,
  type Operation,
  type TRPCLink,
  type TRPCRequestOptions,
} from '@trpc/client';
import type { AnyRouter } from '@trpc/server';
import { request, type Dispatcher } from 'undici';
import { callProcedure, getErrorShape, getTRPCErrorFromUnknown } from '@trpc/server/unstable-core-do-not-import';
import { jsonCopy } from './json-copy';
import { newRequestId, type RequestContext } from './request-context';
import { callerHeader, internalTokenHeader, requestIdHeader } from './service-server';
import type { ServiceContext } from './trpc';

export type ServicesMode = 'inprocess' | 'http';

export type ServiceClientOptions<TRouter extends AnyRouter> =
  | { mode: 'inprocess'; router: TRouter; caller: string }
  /**
   * `url` is the service's base URL (its *_SERVICE_URL); procedures live under /trpc. A call not
   * answered within `timeoutMs` (SERVICE_CALL_TIMEOUT_MS) is abandoned and fails like an unreachable service.
   */
  | { mode: 'http'; url: string; internalToken: string; caller: string; timeoutMs: number };

/** What tRPC's link passes to its fetch: a plain method, headers object and string body. */
interface ServiceCallInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal | null;
}

/**
 * The fetch tRPC's link calls, over undici's `request`: the link reads nothing of the answer but
 * `json()`, and fetch's Request and Response objects cost more than the call itself on the hot path.
 * A call not answered within `timeoutMs` is abandoned and fails as an unreachable service does.
 */
async function serviceFetch(url: string, init: ServiceCallInit, timeoutMs: number) {
  const timeout = AbortSignal.timeout(timeoutMs);
  const { statusCode, headers, body } = await request(url, {
    method: init.method as Dispatcher.HttpMethod,
    headers: init.headers,
    body: init.body,
    signal: init.signal ? AbortSignal.any([init.signal, timeout]) : timeout,
  });
  const text = await body.text();
  return { ok: statusCode < 400, status: statusCode, headers, json: async () => JSON.parse(text), text: async () => text };
}

/** The request id a call carries in its operation context (see `forRequest`); a new one when none was given. */
function requestIdOf(context: Record<string, unknown> | undefined): string {
  const requestId = context?.requestId;
  return typeof requestId === 'string' ? requestId : newRequestId();
}

/**
 * One HTTP request per call, its headers carrying the internal credential and the id of the request
 * it serves (from the call's operation context, see `forRequest`). Calls of different requests are
 * never batched together, so every call is logged under its own request; a batch link per request
 * id, made afresh for every request, cost more than the calls it saved.
 */
function requestHeadersLink<TRouter extends AnyRouter>(options: {
  url: string;
  internalToken: string;
  caller: string;
  timeoutMs: number;
}): TRPCLink<TRouter> {
  return httpLink<TRouter>({
    url: `${options.url.replace(/\/$/, '')}/trpc`,
    headers: ({ op }: { op: Operation }) => ({
      [internalTokenHeader]: options.internalToken,
      [requestIdHeader]: requestIdOf(op.context),
      [callerHeader]: options.caller,
    }),
    fetch: (url: string, init: ServiceCallInit) => serviceFetch(url, init, options.timeoutMs),
    // Generic over the router, tRPC cannot see that its transformer is the default one.
  } as unknown as Parameters<typeof httpLink<TRouter>>[0]);
}

/**
 * A client of a colocated router that calls its procedures directly: the whole procedure pipeline
 * (input and output validation, middlewares, error formatting), but no sockets and none of the
 * client runtime's per-call observables and AbortControllers, which showed up on the hot path.
 * Results are copied as JSON would copy them (`jsonCopy`) and errors carry the same shape as over
 * HTTP, so callers cannot tell the two apart.
 */
function createInProcessClient<TRouter extends AnyRouter>(router: TRouter, caller: string): TRPCClient<TRouter> {
  async function call(path: string, type: 'query' | 'mutation', input: unknown, options?: TRPCRequestOptions): Promise<unknown> {
    const ctx: ServiceContext = { requestId: requestIdOf(options?.context), caller };
    try {
      const data = await callProcedure({ router, path, getRawInput: async () => input, ctx, type, signal: undefined, batchIndex: 0 });
      return data === undefined ? undefined : jsonCopy(data);
    } catch (cause) {
      const error = getTRPCErrorFromUnknown(cause);
      const shape = getErrorShape({ config: router._def._config, ctx, error, input, path, type });
      throw TRPCClientError.from({ error: shape } as never, { cause: cause instanceof Error ? cause : undefined });
    }
  }
  const proxy = (path: string[]): unknown =>
    new Proxy(() => {}, {
      get(_target, key: string | symbol) {
        // Not a thenable: `await client` must not look like a pending call.
        if (typeof key === 'symbol' || key === 'then') return undefined;
        if (key === 'query') return (input: unknown, options?: TRPCRequestOptions) => call(path.join('.'), 'query', input, options);
        if (key === 'mutate') return (input: unknown, options?: TRPCRequestOptions) => call(path.join('.'), 'mutation', input, options);
        return proxy([...path, key]);
      },
    });
  return proxy([]) as TRPCClient<TRouter>;
}

/**
 * A typed client of a service. Colocated services are called through tRPC's local link (the full
 * procedure pipeline, no sockets); remote ones over HTTP with the internal credential. Which one
 * is configuration (`SERVICES_MODE`), never a code change.
 */
export function createServiceClient<TRouter extends AnyRouter>(options: ServiceClientOptions<TRouter>): TRPCClient<TRouter> {
  if (options.mode === 'inprocess') return createInProcessClient(options.router, options.caller);
  return createTRPCClient<TRouter>({ links: [requestHeadersLink<TRouter>(options)] });
}

/**
 * `client` with every call carrying `context`'s request id, so the service answering it (and its
 * ledger lines and logs) knows which request it serves. The gateway binds its clients once per
 * request (`ctx.services`); a service binds its own with the `ctx` of the procedure or the event it
 * is handling. An unbound client's calls each get a new request id.
 */
export function forRequest<TClient extends object>(client: TClient, context: RequestContext): TClient {
  const operationContext = { requestId: context.requestId };
  const bind = (target: Record<string | symbol, unknown>): unknown =>
    new Proxy(target, {
      get(node, key) {
        const value = node[key];
        if (key === 'query' || key === 'mutate') {
          const send = value as (input: unknown, options?: TRPCRequestOptions) => Promise<unknown>;
          return (input: unknown, options?: TRPCRequestOptions) =>
            send(input, { ...options, context: { ...operationContext, ...options?.context } });
        }
        if (typeof key === 'symbol' || key === 'then' || (typeof value !== 'object' && typeof value !== 'function') || value === null)
          return value;
        return bind(value as Record<string | symbol, unknown>);
      },
    });
  return bind(client as Record<string | symbol, unknown>) as TClient;
}
