import { setImmediate as atCheckPhase, setTimeout as atTimersPhase } from 'node:timers';
import { setTimeout as afterTimeout } from 'node:timers/promises';

/** When the first caller of this turn of the event loop asked; undefined once the turn has ended. */
let turnStartedAt: number | undefined;

/**
 * Ends the turn begun at `startedAt` at whichever comes first: the check phase (for a turn begun in
 * the timers or poll phase) or the next timers phase (for one begun in the check phase, whose
 * `setImmediate` would run only at the end of the next turn, after an idle wait in the poll phase).
 * Each ends only the turn it was made for.
 */
function beginTurn(startedAt: number): void {
  turnStartedAt = startedAt;
  const end = () => {
    if (turnStartedAt === startedAt) turnStartedAt = undefined;
  };
  atCheckPhase(end);
  atTimersPhase(end, 0).unref();
}

/**
 * A promise of the event loop's next turn, from its timers phase. Work that waits for it lets the
 * turn end, so timers run before it goes on. A `setImmediate` from a callback of the poll phase (a
 * socket read) runs in the same turn's check phase, with no timer served between (ADR 0074).
 */
export function nextTurn(): Promise<void> {
  return afterTimeout(0);
}

/**
 * `nextTurn()` when this turn of the event loop has run `budgetMs` since its first call here;
 * otherwise undefined, so the caller goes on in the same synchronous stretch (ADR 0074).
 *
 * For synchronous work chained through promises (the embedded store's operations): awaiting one
 * another, such operations never give the loop back, and every chain started in one poll phase runs
 * to its end before a timer or another socket is served. The turn is counted from the first call in
 * it, so work before that call is not included. The timers are taken from `node:timers` when this
 * module loads, so fake timers cannot stop a turn from ending.
 */
export function nextTurnIfSpent(budgetMs: number): Promise<void> | undefined {
  const now = performance.now();
  if (turnStartedAt === undefined) {
    beginTurn(now);
    return undefined;
  }
  return now - turnStartedAt >= budgetMs ? nextTurn() : undefined;
}
