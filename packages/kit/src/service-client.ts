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
  /** `url` is the service's base URL (its *_SERVICE_URL); procedures live under /trpc. */
  | { mode: 'http'; url: string; internalToken: string; caller: string };

/**
 * One HTTP batch link per request id: calls made for the same request in the same tick share a
 * batch, and the batch's headers carry that request's id. Links are dropped once idle.
 */
function requestScopedBatchLink<TRouter extends AnyRouter>(options: { url: string; internalToken: string; caller: string }): TRPCLink<TRouter> {
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
          } as unknown as Parameters<typeof httpBatchLink<TRouter>>[0])(runtime);
          entry = { link, inFlight: 0 };
          byRequest.set(requestId, entry);
        }
        const current = entry;
        current.inFlight++;
        const subscription = current.link({ op, next: () => { throw new Error('httpBatchLink is terminating'); } } as never).subscribe(observer);
        return () => {
          subscription.unsubscribe();
          if (--current.inFlight === 0) byRequest.delete(requestId);
        };
      });
  };
}

/**
 * Calls a colocated router's procedures directly: the whole procedure pipeline (input and output
 * validation, middlewares, error formatting), no sockets. Results are copied through JSON so a
 * caller sees exactly what it would over HTTP. Unlike tRPC's localLink it wires no abort signals,
 * whose per-call AbortController and DOMException cost showed up on the hot path.
 */
function inProcessLink<TRouter extends AnyRouter>(router: TRouter, caller: string): TRPCLink<TRouter> {
  return () =>
    ({ op }) =>
      observable((observer) => {
        const ctx: ServiceContext = { requestId: currentRequestId() ?? newRequestId(), caller };
        callProcedure({ router, path: op.path, getRawInput: async () => op.input, ctx, type: op.type, signal: undefined, batchIndex: 0 }).then(
          (data) => {
            observer.next({ result: { data: data === undefined ? undefined : JSON.parse(JSON.stringify(data)) } });
            observer.complete();
          },
          (cause: unknown) => {
            const error = getTRPCErrorFromUnknown(cause);
            const shape = getErrorShape({ config: router._def._config, ctx, error, input: op.input, path: op.path, type: op.type });
            observer.error(TRPCClientError.from({ error: shape } as never, { cause: cause instanceof Error ? cause : undefined }));
          },
        );
        return () => {};
      });
}

/**
 * A typed client of a service. Colocated services are called through tRPC's local link (the full
 * procedure pipeline, no sockets); remote ones over HTTP with the internal credential. Which one
 * is configuration (`SERVICES_MODE`), never a code change.
 */
export function createServiceClient<TRouter extends AnyRouter>(options: ServiceClientOptions<TRouter>): TRPCClient<TRouter> {
  if (options.mode === 'inprocess') return createTRPCClient<TRouter>({ links: [inProcessLink<TRouter>(options.router, options.caller)] });
  return createTRPCClient<TRouter>({ links: [requestScopedBatchLink<TRouter>(options)] });
}
