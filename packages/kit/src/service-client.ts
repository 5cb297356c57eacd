import { TRPCClientError, type TRPCClient, type TRPCRequestOptions } from '@trpc/client';
import { callTRPCProcedure, getErrorShape, getTRPCErrorFromUnknown, type AnyRouter } from '@trpc/server';
import { request } from 'undici';
import { jsonCopy } from './json-copy';
import { serviceNameOf } from './metrics';
import { errorConfigOf } from './trpc-internals';
import { newRequestId, type RequestContext } from './request-context';
import { inSpan, traceCarrierOf, tracingConfigured, type TraceContext } from './tracing';
import { callerHeader, internalTokenHeader, requestIdHeader } from './service-server';
import type { ServiceContext } from './trpc';

export type ServiceClientOptions<TRouter extends AnyRouter> =
  | { mode: 'inprocess'; router: TRouter; caller: string }
  /**
   * `url` is the service's base URL (its *_SERVICE_URL); procedures live under /trpc. A call whose
   * answer has not begun within `timeoutMs` (SERVICE_CALL_TIMEOUT_MS; undici's timers keep it to
   * about a second), or stalls that long midway, is abandoned and fails like an unreachable service.
   */
  | { mode: 'http'; url: string; internalToken: string; caller: string; timeoutMs: number };

type CallType = 'query' | 'mutation';
/** One call of a procedure: what both clients do, each its own way. */
type Call = (path: string, type: CallType, input: unknown, options?: TRPCRequestOptions) => Promise<unknown>;

/** The request id a call carries in its operation context (see `forRequest`); a new one when none was given. */
function requestIdOf(context: Record<string, unknown> | undefined): string {
  const requestId = context?.requestId;
  return typeof requestId === 'string' ? requestId : newRequestId();
}

/** The trace context a call carries in its operation context (see `forRequest`), with tracing on. */
function traceOf(context: Record<string, unknown> | undefined): TraceContext | undefined {
  return context?.trace as TraceContext | undefined;
}

/** What a service answered, as the TRPCClientError tRPC's own client would have thrown. */
function clientErrorOf(body: unknown, status: number): TRPCClientError<never> {
  const error = (body as { error?: { message?: unknown } } | null)?.error;
  if (typeof error === 'object' && error !== null) {
    if (typeof (error as { code?: unknown }).code === 'number') return TRPCClientError.from(body as never);
    if (typeof error.message === 'string') return new TRPCClientError(error.message);
  }
  return new TRPCClientError(`The service answered ${status} without a result.`);
}

/**
 * Calls over HTTP in tRPC's protocol for one unbatched call (what `createServiceCallHandler` serves)
 * through undici's `request`, not tRPC's client runtime, whose observables, Fetch Request and Response
 * and AbortController per call cost the separate-process gateway a fifth of its CPU (ADR 0049). Its
 * headers carry the internal credential and the id of the request it serves (`forRequest`).
 */
function httpCall(options: { url: string; internalToken: string; caller: string; timeoutMs: number }): Call {
  const base = `${options.url.replace(/\/$/, '')}/trpc/`;
  const send = async (path: string, type: CallType, input: unknown, callOptions: TRPCRequestOptions | undefined, trace?: TraceContext) => {
    const headers: Record<string, string> = {
      [internalTokenHeader]: options.internalToken,
      [requestIdHeader]: requestIdOf(callOptions?.context),
      [callerHeader]: options.caller,
      ...traceCarrierOf(trace),
    };
    let url = base + path;
    let body: string | undefined;
    if (type === 'query') {
      if (input !== undefined) url += `?input=${encodeURIComponent(JSON.stringify(input))}`;
    } else {
      headers['content-type'] = 'application/json';
      body = input === undefined ? '' : JSON.stringify(input);
    }
    let status: number;
    let text: string;
    try {
      const response = await request(url, {
        method: type === 'query' ? 'GET' : 'POST',
        headers,
        body,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
        signal: callOptions?.signal ?? undefined,
      });
      status = response.statusCode;
      text = await response.body.text();
    } catch (cause) {
      throw TRPCClientError.from(cause instanceof Error ? cause : new Error(String(cause)));
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new TRPCClientError(`The service answered ${status} with a body that is not JSON.`);
    }
    const result = (parsed as { result?: { data?: unknown } } | null)?.result;
    if (status < 400 && typeof result === 'object' && result !== null) return result.data;
    throw clientErrorOf(parsed, status);
  };
  if (!tracingConfigured()) return send;
  // A client span per call, under the request's, whose context the call's headers carry (ADR 0117).
  return (path, type, input, callOptions) =>
    inSpan(
      path,
      { kind: 'client', parent: traceOf(callOptions?.context), attributes: { 'rpc.system': 'trpc', 'rpc.method': path } },
      (_span, trace) => send(path, type, input, callOptions, trace),
    );
}

/** The typed client over `call`: a path proxy whose `query` and `mutate` call it, carrying `context` when bound. */
function clientOf<TRouter extends AnyRouter>(call: Call, context?: Record<string, unknown>): TRPCClient<TRouter> {
  // Made once: most calls pass no options of their own.
  const bound: TRPCRequestOptions | undefined = context && { context };
  const withContext = (options?: TRPCRequestOptions): TRPCRequestOptions | undefined => {
    if (!bound || !options) return options ?? bound;
    return { ...options, context: { ...context, ...options.context } };
  };
  const proxy = (path: string[]): unknown =>
    new Proxy(() => {}, {
      get(_target, key: string | symbol) {
        // Not a thenable: `await client` must not look like a pending call.
        if (typeof key === 'symbol' || key === 'then') return undefined;
        if (key === 'query')
          return (input: unknown, options?: TRPCRequestOptions) => call(path.join('.'), 'query', input, withContext(options));
        if (key === 'mutate')
          return (input: unknown, options?: TRPCRequestOptions) => call(path.join('.'), 'mutation', input, withContext(options));
        return proxy([...path, key]);
      },
    });
  const client = proxy([]) as TRPCClient<TRouter>;
  // A bound client is made per request and never bound again: only the unbound ones are recorded.
  if (!context) callsOfClients.set(client, call);
  return client;
}

/** The `Call` of each client made here, so `forRequest` binds it without a second proxy (and never reads the client). */
const callsOfClients = new WeakMap<object, Call>();

/**
 * A client of a colocated router that calls its procedures through tRPC's procedure caller
 * (`callTRPCProcedure`): the whole pipeline (input and output validation, middlewares, error
 * formatting) without sockets or the client runtime's per-call cost. Results are copied as JSON would
 * copy them (`jsonCopy`) and errors carry the same shape as over HTTP, so callers cannot tell the two
 * apart; an answer the service shared (`shareJson`) already is JSON's copy, and comes frozen.
 */
function createInProcessClient<TRouter extends AnyRouter>(router: TRouter, caller: string): TRPCClient<TRouter> {
  const config = errorConfigOf(router);
  return clientOf<TRouter>(async (path, type, input, options) => {
    const ctx: ServiceContext = {
      requestId: requestIdOf(options?.context),
      caller,
      service: serviceNameOf(router),
      trace: traceOf(options?.context),
    };
    try {
      const data = await callTRPCProcedure({ router, path, getRawInput: async () => input, ctx, type, signal: undefined, batchIndex: 0 });
      return data === undefined ? undefined : jsonCopy(data);
    } catch (cause) {
      const error = getTRPCErrorFromUnknown(cause);
      const shape = getErrorShape({ config, ctx, error, input, path, type });
      throw TRPCClientError.from({ error: shape } as never, { cause: cause instanceof Error ? cause : undefined });
    }
  });
}

/**
 * A typed client of a service. Colocated services are called in process (the full procedure
 * pipeline, no sockets); remote ones over HTTP with the internal credential. Which one is
 * configuration (`SERVICES_MODE`), never a code change.
 */
export function createServiceClient<TRouter extends AnyRouter>(options: ServiceClientOptions<TRouter>): TRPCClient<TRouter> {
  if (options.mode === 'inprocess') return createInProcessClient(options.router, options.caller);
  return clientOf<TRouter>(httpCall(options));
}

/**
 * `client` with every call carrying `context`'s request id, so the service answering it (and its
 * ledger lines and logs) knows which request it serves. The gateway binds its clients once per
 * request (`ctx.services`); a service binds its own with the `ctx` of the procedure or the event it
 * is handling. An unbound client's calls each get a new request id.
 */
export function forRequest<TClient extends object>(client: TClient, context: RequestContext): TClient {
  const operationContext = { requestId: context.requestId, trace: context.trace };
  const call = callsOfClients.get(client);
  if (call) return clientOf(call, operationContext) as TClient;
  // Any other client (a test's stand-in): each call it makes gets the context added.
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
