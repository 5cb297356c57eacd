import { readFile } from 'node:fs';
import { setImmediate as checkPhase } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { nextTurn, nextTurnIfSpent } from './turn-budget';

function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('nextTurnIfSpent', () => {
  it('lets a turn run its budget, then sends the caller to the next turn, which starts a budget of its own', async () => {
    // A budget far above a loaded machine's pauses, so only the busy wait spends it.
    await checkPhase();
    expect(nextTurnIfSpent(200)).toBeUndefined();
    expect(nextTurnIfSpent(200)).toBeUndefined();
    busyFor(210);
    const later = nextTurnIfSpent(200);
    expect(later).toBeInstanceOf(Promise);
    // Its timer is due by the next timers phase, which comes before the check phase that ends a
    // turn begun in a check phase: the turn's own timer must have ended it by then.
    busyFor(2);
    await later;
    expect(nextTurnIfSpent(200)).toBeUndefined();
  });

  it('lets a timer run in the middle of a chain of synchronous work that asks it between steps', async () => {
    await checkPhase();
    // Counted in steps, not in milliseconds: each step spends at least 1 ms of a 4 ms budget, so the
    // chain yields within five steps however slow or loaded the machine is.
    let timerFiredAtStep: number | undefined;
    let step = 0;
    setTimeout(() => {
      timerFiredAtStep = step;
    }, 0);
    for (; step < 300; step++) {
      busyFor(1);
      const later = nextTurnIfSpent(4);
      if (later) await later;
      else await Promise.resolve();
    }
    expect(timerFiredAtStep).toBeLessThan(150);
  });

  it('goes on in the next turn, after its timers, also when asked from a callback of the poll phase (where setImmediate would not)', async () => {
    const order: string[] = [];
    await new Promise<void>((done) => {
      readFile(import.meta.filename, () => {
        setTimeout(() => order.push('timer'), 0);
        void nextTurn().then(() => {
          order.push('next turn');
          done();
        });
        setImmediate(() => order.push('check phase of the same turn'));
      });
    });
    expect(order).toEqual(['check phase of the same turn', 'timer', 'next turn']);
  });
});
