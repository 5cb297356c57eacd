import type { IncomingMessage, ServerResponse } from 'node:http';

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * `handler`, started from the event loop's check phase rather than from the read of each socket, at
 * most about `budgetMs` of requests per turn: a loaded server otherwise runs every ready connection's
 * request in one poll phase, and one started in its socket's read costs more CPU (ADR 0047). Requests
 * wait in arrival order; what a drain cannot start within the budget waits for the next turn. An idle
 * server starts a request in the turn it arrives; `budgetMs` 0 starts each in its socket's read, as
 * Node does.
 */
export function handleInTurns(handler: RequestHandler, budgetMs: number): RequestHandler {
  if (budgetMs <= 0) return handler;
  const waiting: [IncomingMessage, ServerResponse][] = [];
  let drainScheduled = false;
  const drain = () => {
    const startedAt = performance.now();
    let next = waiting.shift();
    while (next) {
      handler(...next);
      next = performance.now() - startedAt < budgetMs ? waiting.shift() : undefined;
    }
    // Scheduled from the check phase, the next drain runs in the next turn.
    if (waiting.length > 0) setImmediate(drain);
    else drainScheduled = false;
  };
  return (req, res) => {
    waiting.push([req, res]);
    if (!drainScheduled) {
      drainScheduled = true;
      setImmediate(drain);
    }
  };
}
