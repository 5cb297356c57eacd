import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { nextTurnIfSpent } from './turn-budget';

function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('nextTurnIfSpent', () => {
  it('lets a turn run its budget, then sends the caller to the next turn, which starts a budget of its own', async () => {
    await nextTurn();
    expect(nextTurnIfSpent(5)).toBeUndefined();
    busyFor(2);
    expect(nextTurnIfSpent(5)).toBeUndefined();
    busyFor(4);
    const later = nextTurnIfSpent(5);
    expect(later).toBeInstanceOf(Promise);
    await later;
    expect(nextTurnIfSpent(5)).toBeUndefined();
    busyFor(6);
    expect(nextTurnIfSpent(5)).toBeInstanceOf(Promise);
  });

  it('lets a timer run in the middle of a chain of synchronous work that asks it between steps', async () => {
    await nextTurn();
    let timerFiredAfterMs: number | undefined;
    const started = performance.now();
    setTimeout(() => {
      timerFiredAfterMs = performance.now() - started;
    }, 0);
    while (performance.now() - started < 300) {
      busyFor(1);
      const later = nextTurnIfSpent(4);
      if (later) await later;
      else await Promise.resolve();
    }
    expect(timerFiredAfterMs).toBeLessThan(150);
  });
});
