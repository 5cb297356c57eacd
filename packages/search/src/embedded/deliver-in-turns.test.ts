import { describe, expect, it } from 'vitest';
import { deliverInTurns } from './deliver-in-turns';

/** Keeps the thread busy, as the request a reply resumes does. */
function work(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('deliverInTurns', () => {
  it('hands a burst over a few per event-loop turn, in order, each turn near the budget', async () => {
    let turn = 0;
    let ticking = true;
    const tick = () => {
      turn++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const settled: { item: number; turn: number }[] = [];
    const deliver = deliverInTurns((item: number) => {
      settled.push({ item, turn });
      work(4);
    }, 10);
    // Forty replies arriving at once, as a worker's port delivers a backlog.
    for (let item = 0; item < 40; item++) deliver(item);
    await new Promise<void>((resolve) => {
      const wait = () => (settled.length === 40 ? resolve() : setTimeout(wait, 5));
      wait();
    });
    ticking = false;

    expect(settled.map(({ item }) => item)).toEqual(Array.from({ length: 40 }, (_, item) => item));
    const perTurn = new Map<number, number>();
    for (const { turn: at } of settled) perTurn.set(at, (perTurn.get(at) ?? 0) + 1);
    // 4 ms each against a 10 ms budget: never more than the first turn's 4, so at least 10 turns.
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(4);
    expect(perTurn.size).toBeGreaterThanOrEqual(10);
  });

  it('delivers a lone reply in the next turn', async () => {
    const settled: number[] = [];
    const deliver = deliverInTurns((item: number) => settled.push(item), 10);
    deliver(7);
    expect(settled).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toEqual([7]);
  });
});
