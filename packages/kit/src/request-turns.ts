import type { IncomingMessage, ServerResponse } from 'node:http';

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * `handler`, given at most about `budgetMs` of work per event-loop phase (ADR 0047). A loaded
 * server receives the requests of every ready connection in one poll phase; handled all at once,
 * 64 connections held the loop for 45–100 ms and the gateway spent about twice the CPU per request.
 * Past the budget, requests wait in arrival order and are started from `setImmediate`, a budget's
 * worth per turn, so timers, answers of other services and writes get their turn in between. The
 * first request of a phase always starts at once: an idle server answers as before.
 * `budgetMs` 0 hands every request to `handler` at once.
 */
export function handleInTurns(handler: RequestHandler, budgetMs: number): RequestHandler {
  if (budgetMs <= 0) return handler;
  const waiting: [IncomingMessage, ServerResponse][] = [];
  let phaseStartedAt: number | undefined;
  let draining = false;
  const endPhase = () => {
    phaseStartedAt = undefined;
  };
  const drain = () => {
    const startedAt = performance.now();
    do {
      const [req, res] = waiting.shift()!;
      handler(req, res);
    } while (waiting.length > 0 && performance.now() - startedAt < budgetMs);
    // Queued from the check phase, the next drain runs in the next turn, after timers and I/O.
    if (waiting.length > 0) setImmediate(drain);
    else draining = false;
  };
  return (req, res) => {
    const now = performance.now();
    if (phaseStartedAt === undefined) {
      phaseStartedAt = now;
      setImmediate(endPhase);
    }
    if (waiting.length === 0 && now - phaseStartedAt < budgetMs) {
      handler(req, res);
      return;
    }
    waiting.push([req, res]);
    if (!draining) {
      draining = true;
      setImmediate(drain);
    }
  };
}
