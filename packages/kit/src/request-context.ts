import { newId } from './ids';
import type { TraceContext } from './tracing';

/**
 * What follows one request through service calls and events: its id and who made it. It travels
 * explicitly (a procedure's `ctx`, a client bound with `forRequest`, an event's envelope), never
 * through AsyncLocalStorage: on Node 20 that installs promise hooks that cost every promise of the
 * process, about a third of a metered search's CPU (ADR 0048).
 */
export interface RequestContext {
  requestId: string;
  /** The calling service, `gateway`, or `event:<type>`; absent for the outside world. */
  caller?: string;
  /** Where the request is in its trace, with tracing on: its calls' and events' spans go under it (ADR 0117). */
  trace?: TraceContext;
}

export function newRequestId(): string {
  return newId('req');
}
