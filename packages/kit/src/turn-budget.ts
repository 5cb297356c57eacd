import { setImmediate as atCheckPhase } from 'node:timers';
import { setTimeout as afterTimeout } from 'node:timers/promises';

/** When the first caller of this turn of the event loop asked; reset at the turn's check phase. */
let turnStartedAt: number | undefined;

function endTurn(): void {
  turnStartedAt = undefined;
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
 * it, so work before that call is not included, and it ends at the check phase that follows.
 * `setImmediate` is taken from `node:timers` when this module loads, so fake timers cannot stop it.
 */
export function nextTurnIfSpent(budgetMs: number): Promise<void> | undefined {
  const now = performance.now();
  if (turnStartedAt === undefined) {
    turnStartedAt = now;
    atCheckPhase(endTurn);
    return undefined;
  }
  return now - turnStartedAt >= budgetMs ? nextTurn() : undefined;
}
