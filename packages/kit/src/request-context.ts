import { newId } from './ids';
import { AsyncLocalStorage } from 'node:async_hooks';

/** What follows one request through tRPC calls and NATS events: its id and who made it. */
export interface RequestContext {
  requestId: string;
  /** The calling service or `gateway`; absent for the outside world. */
  caller?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

export function newRequestId(): string {
  return newId('req');
}
