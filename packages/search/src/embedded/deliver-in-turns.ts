/** Milliseconds per event-loop turn for replies and the work they resume: far under issue 15's 50 ms stall limit. */
export const replyTurnBudgetMs = 10;

/**
 * Hands queued items to `settle` a few per event-loop turn, so a turn stays near `budgetMs` (ADR 0051):
 * Node delivers every reply waiting on a worker's port in one callback, and each resumed request runs
 * to its response before the loop turns. That work runs after the callback, out of reach of a clock
 * read between replies, so the count adapts to the previous turn, delivery to delivery: halved when
 * it exceeded the budget, one more otherwise.
 */
export function deliverInTurns<T>(settle: (item: T) => void, budgetMs = replyTurnBudgetMs): (item: T) => void {
  const queued: T[] = [];
  let perTurn = 4;
  let scheduled = false;
  let previousTurnAt: number | undefined;
  const deliver = () => {
    const startedAt = performance.now();
    if (previousTurnAt !== undefined) perTurn = startedAt - previousTurnAt > budgetMs ? Math.max(1, perTurn >> 1) : perTurn + 1;
    for (let i = 0; i < perTurn && queued.length > 0; i++) {
      const item = queued.shift();
      if (item !== undefined) settle(item);
    }
    if (queued.length > 0) {
      previousTurnAt = startedAt;
      setImmediate(deliver);
    } else {
      scheduled = false;
      previousTurnAt = undefined;
    }
  };
  return (item) => {
    queued.push(item);
    if (!scheduled) {
      scheduled = true;
      setImmediate(deliver);
    }
  };
}
