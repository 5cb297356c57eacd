import { createTRPCClient, httpBatchLink, TRPCClientError, type TRPCClient, type TRPCLink } from '@trpc/client';
import type { AnyRouter } from '@trpc/server';
import { observable } from '@trpc/server/observable';
import { callProcedure, getErrorShape, getTRPCErrorFromUnknown } from '@trpc/server/unstable-core-do-not-import';
import { currentRequestId, newRequestId } from './request-context';
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

/**
 * One HTTP batch link per request id: calls made for the same request in the same tick share a
 * batch, and the batch's headers carry that request's id. Links are dropped once idle.
 */
function requestScopedBatchLink<TRouter extends AnyRouter>(options: {
  url: string;
  internalToken: string;
  caller: string;
  timeoutMs: number;
}): TRPCLink<TRouter> {
  const fetchWithTimeout = (url: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    return fetch(url, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout });
  };
  return (runtime) => {
    const byRequest = new Map<string, { link: ReturnType<TRPCLink<TRouter>>; inFlight: number }>();
    return ({ op }) =>
      observable((observer) => {
        const requestId = currentRequestId() ?? newRequestId();
        let entry = byRequest.get(requestId);
        if (!entry) {
          const link = httpBatchLink<TRouter>({
            url: `${options.url.replace(/\/$/, '')}/trpc`,
            headers: { [internalTokenHeader]: options.internalToken, [requestIdHeader]: requestId, [callerHeader]: options.caller },
            fetch: fetchWithTimeout,
          } as unknown as Parameters<typeof httpBatchLink<TRouter>>[0])(runtime);
          entry = { link, inFlight: 0 };
          byRequest.set(requestId, entry);
        }
        const current = entry;
        current.inFlight++;
        const subscription = current
          .link({
            op,
            next: () => {
              throw new Error('httpBatchLink is terminating');
            },
          } as never)
          .subscribe(observer);
        return () => {
          subscription.unsubscribe();
          if (--current.inFlight === 0) byRequest.delete(requestId);
        };
      });
  };
}

/**
 * A client of a colocated router that calls its procedures directly: the whole procedure pipeline
 * (input and output validation, middlewares, error formatting), but no sockets and none of the
 * client runtime's per-call observables and AbortControllers, which showed up on the hot path.
 * Results are copied through JSON and errors carry the same shape as over HTTP, so callers cannot
 * tell the two apart.
 */
function createInProcessClient<TRouter extends AnyRouter>(router: TRouter, caller: string): TRPCClient<TRouter> {
  async function call(path: string, type: 'query' | 'mutation', input: unknown): Promise<unknown> {
    const ctx: ServiceContext = { requestId: currentRequestId() ?? newRequestId(), caller };
    try {
      const data = await callProcedure({ router, path, getRawInput: async () => input, ctx, type, signal: undefined, batchIndex: 0 });
      return data === undefined ? undefined : JSON.parse(JSON.stringify(data));
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
        if (key === 'query') return (input: unknown) => call(path.join('.'), 'query', input);
        if (key === 'mutate') return (input: unknown) => call(path.join('.'), 'mutation', input);
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
  return createTRPCClient<TRouter>({ links: [requestScopedBatchLink<TRouter>(options)] });
}
