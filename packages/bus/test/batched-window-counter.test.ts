import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createBatchedWindowCounter } from '../src/batched-window-counter';
import { createMemoryWindowCounter } from '../src/memory-window-counter';
import type { WindowCounter } from '../src/window-counter';
import { dayMs, describeWindowCounterBehaviour } from './window-counter-behaviour';

const syncIntervalMs = 20;

describeWindowCounterBehaviour('batched over memory', async () =>
  createBatchedWindowCounter(createMemoryWindowCounter(), { syncIntervalMs }),
);

describe('batched window counters of two replicas over one shared counter', () => {
  it('start a key from the shared count, learn the other replica’s hits at their next sync, and lose no hit', async () => {
    const shared = createMemoryWindowCounter();
    const [a, b] = [0, 1].map(() => createBatchedWindowCounter(shared, { syncIntervalMs }));
    const key = 'acct:shared';
    expect((await a!.increment(key, dayMs)).count).toBe(1);
    // B's first hit of the key goes to the shared count at once, so B starts from A's hit.
    expect((await b!.increment(key, dayMs)).count).toBe(2);
    for (let i = 0; i < 5; i++) await b!.increment(key, dayMs);
    await sleep(syncIntervalMs * 5);
    // Until A syncs again it counts from what it knew: the bound the other replica's hits may be missed by.
    expect((await a!.increment(key, dayMs)).count).toBe(2);
    await sleep(syncIntervalMs * 5);
    expect((await a!.increment(key, dayMs)).count).toBe(9);
    await Promise.all([a!.close(), b!.close()]);
    expect((await shared.increment(key, dayMs)).count).toBe(10);
  });
});

describe('a batched window counter’s sync', () => {
  it('hands the shared counter all hits since the last sync as one change', async () => {
    const memory = createMemoryWindowCounter();
    const changes: number[] = [];
    const shared: WindowCounter = {
      ...memory,
      increment(key, windowMs) {
        changes.push(1);
        return memory.increment(key, windowMs);
      },
      decrement(key, windowMs) {
        changes.push(-1);
        return memory.decrement(key, windowMs);
      },
      add(key, windowMs, delta) {
        changes.push(delta);
        return memory.add(key, windowMs, delta);
      },
    };
    const counter = createBatchedWindowCounter(shared, { syncIntervalMs });
    const key = 'acct:busy';
    await counter.increment(key, dayMs);
    for (let i = 0; i < 500; i++) await counter.increment(key, dayMs);
    await counter.decrement(key, dayMs);
    await sleep(syncIntervalMs * 5);

    // The first hit went alone (a key's first hit learns the shared count); the other 500 and the one taken back went as one.
    expect(changes).toEqual([1, 499]);
    expect((await memory.increment(key, dayMs)).count).toBe(501);
    await counter.close();
  });
});
