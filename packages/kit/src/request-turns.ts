import type { IncomingMessage, ServerResponse } from 'node:http';
import { inActiveContext } from './tracing';

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * `handler`, started from the event loop's check phase rather than from the read of each socket,
 * at most about `budgetMs` of requests per turn (ADR 0047). A loaded server receives the requests of
 * every ready connection in one poll phase; started there one after another, 64 connections held
 * the loop for 45–100 ms, and a request started in its socket's read cost the gateway up to twice
 * the CPU of one started from `setImmediate`. Requests wait in arrival order; each drain starts them
 * until the budget is spent and leaves the rest to the next turn, after timers and I/O. An idle
 * server starts a request in the same turn it arrives. `budgetMs` 0 starts every request in the
 * read of its socket, as Node does. With tracing on, each request runs in the context it arrived in:
 * started from a drain, it would otherwise run in the drain's, under another request's span (ADR 0102).
 */
export function handleInTurns(handler: RequestHandler, budgetMs: number): RequestHandler {
  if (budgetMs <= 0) return handler;
  const waiting: [RequestHandler, IncomingMessage, ServerResponse][] = [];
  let drainScheduled = false;
  const drain = () => {
    const startedAt = performance.now();
    let next = waiting.shift();
    while (next) {
      const [handle, req, res] = next;
      handle(req, res);
      next = performance.now() - startedAt < budgetMs ? waiting.shift() : undefined;
    }
    // Scheduled from the check phase, the next drain runs in the next turn.
    if (waiting.length > 0) setImmediate(drain);
    else drainScheduled = false;
  };
  return (req, res) => {
    waiting.push([inActiveContext(handler), req, res]);
    if (!drainScheduled) {
      drainScheduled = true;
      setImmediate(drain);
    }
  };
}
