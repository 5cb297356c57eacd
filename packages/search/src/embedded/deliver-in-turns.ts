/**
 * What the event loop may spend per turn on replies and the work they resume, in milliseconds.
 * Far under the 50 ms no stall may exceed (issue 15), and a few searches' worth each turn.
 */
export const replyTurnBudgetMs = 10;

/**
 * Hands queued items to `settle` a few per event-loop turn, sized so a turn stays near `budgetMs`.
 * The search worker's replies need this. Node delivers every reply waiting on a worker's port in one
 * callback, and the request each reply resumes runs to its response before the loop turns again.
 * When 64 searches were waiting, that held the loop for 50–155 ms.
 *
 * Settling a reply only queues what it resumes: that work runs after the callback, out of reach of a
 * clock read between two replies. So the count adapts to how long the previous turn took, callback
 * and resumed work together, measured from one delivery to the next: halved when the turn exceeded
 * the budget, one more otherwise. A reply arriving at an idle engine is delivered in the next turn.
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
