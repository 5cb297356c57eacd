import { setImmediate as atCheckPhase } from 'node:timers';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** When the first caller of this turn of the event loop asked; reset at the turn's check phase. */
let turnStartedAt: number | undefined;

function endTurn(): void {
  turnStartedAt = undefined;
}

/**
 * A promise of the next turn of the event loop when this turn has run `budgetMs` since its first
 * call here; otherwise undefined, so the caller goes on in the same synchronous stretch (ADR 0074).
 *
 * For synchronous work chained through promises (the embedded store's operations): awaiting one
 * another, such operations never give the loop back, and every chain started in one poll phase runs
 * to its end before a timer or another socket is served. The turn is counted from the first call in
 * it, so work before that call is not included, and it ends at the check phase that follows.
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
