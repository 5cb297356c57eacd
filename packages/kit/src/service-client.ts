import { createTRPCClient, httpBatchLink, localLink, type TRPCClient, type TRPCLink } from '@trpc/client';
import type { AnyRouter } from '@trpc/server';
import { observable } from '@trpc/server/observable';
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
 * A typed client of a service. Colocated services are called through tRPC's local link (the full
 * procedure pipeline, no sockets); remote ones over HTTP with the internal credential. Which one
 * is configuration (`SERVICES_MODE`), never a code change.
 */
export function createServiceClient<TRouter extends AnyRouter>(options: ServiceClientOptions<TRouter>): TRPCClient<TRouter> {
  if (options.mode === 'inprocess') {
    const caller = options.caller;
    return createTRPCClient<TRouter>({
      links: [
        localLink<TRouter>({
          router: options.router,
          createContext: async () => ({ requestId: currentRequestId() ?? newRequestId(), caller }) satisfies ServiceContext as never,
        } as unknown as Parameters<typeof localLink<TRouter>>[0]),
      ],
    });
  }
  return createTRPCClient<TRouter>({ links: [requestScopedBatchLink<TRouter>(options)] });
}
