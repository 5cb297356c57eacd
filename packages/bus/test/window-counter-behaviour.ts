/**
 * The behaviour every WindowCounter must show, written once and run against each implementation by its
 * test file (this file holds no tests of its own).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WindowCounter } from '../src/window-counter';

/** Long enough that a test never straddles a window boundary (windows are aligned to the epoch). */
export const dayMs = 24 * 60 * 60 * 1000;

export function describeWindowCounterBehaviour(name: string, open: () => Promise<WindowCounter>): void {
  describe(`${name}: window counter behaviour`, () => {
    let counter: WindowCounter;
    let keyCounter = 0;
    const key = () => `client ${++keyCounter} / 203.0.113.7 *.> ü`;

    beforeAll(async () => {
      counter = await open();
    });

    afterAll(async () => {
      await counter?.close();
    });

    it('counts hits in a window and says when it resets', async () => {
      const k = key();
      const first = await counter.increment(k, dayMs);
      const second = await counter.increment(k, dayMs);

      expect(first.count).toBe(1);
      expect(second.count).toBe(2);
      expect(second.resetAt.getTime() % dayMs).toBe(0);
      expect(second.resetAt.getTime()).toBeGreaterThan(Date.now());
      expect(second.resetAt.getTime() - Date.now()).toBeLessThanOrEqual(dayMs);
    });

    it('keeps keys and window lengths apart', async () => {
      const [a, b] = [key(), key()];
      await counter.increment(a, dayMs);
      await counter.increment(a, dayMs);

      expect((await counter.increment(b, dayMs)).count).toBe(1);
      expect((await counter.increment(a, 60 * 60 * 1000)).count).toBe(1);
    });

    it('takes a hit back, never below zero', async () => {
      const k = key();
      await counter.increment(k, dayMs);
      await counter.increment(k, dayMs);

      expect((await counter.decrement(k, dayMs)).count).toBe(1);
      expect((await counter.decrement(k, dayMs)).count).toBe(0);
      expect((await counter.decrement(k, dayMs)).count).toBe(0);
      expect((await counter.increment(k, dayMs)).count).toBe(1);
    });

    it('adds a batch of hits at once, and takes them back never below zero', async () => {
      const k = key();
      await counter.increment(k, dayMs);

      expect((await counter.add(k, dayMs, 40)).count).toBe(41);
      expect((await counter.increment(k, dayMs)).count).toBe(42);
      expect((await counter.add(k, dayMs, -2)).count).toBe(40);
      expect((await counter.add(k, dayMs, -100)).count).toBe(0);
      expect((await counter.increment(k, dayMs)).count).toBe(1);
    });

    it('starts from zero after a reset', async () => {
      const k = key();
      await counter.increment(k, dayMs);
      await counter.increment(k, dayMs);
      await counter.reset(k);

      expect((await counter.increment(k, dayMs)).count).toBe(1);
    });

    it('starts from zero in a new window', async () => {
      const k = key();
      const windowMs = 300;
      const first = await counter.increment(k, windowMs);

      await vi.waitFor(() => expect(Date.now()).toBeGreaterThanOrEqual(first.resetAt.getTime()), { timeout: 5_000, interval: 20 });
      const next = await counter.increment(k, windowMs);

      expect(next.count).toBe(1);
      expect(next.resetAt.getTime()).toBeGreaterThan(first.resetAt.getTime());
    });

    it('counts concurrent hits exactly', async () => {
      const k = key();
      const results = await Promise.all(Array.from({ length: 30 }, () => counter.increment(k, dayMs)));

      expect(results.map((result) => result.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    });

    it('rejects a window that is not a positive integer', async () => {
      await expect(counter.increment(key(), 0)).rejects.toThrow(/Invalid window length/);
    });
  });
}
