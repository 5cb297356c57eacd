import { describe, expect, it, vi } from 'vitest';
import { describeEventBusBehaviour, behaviourTimings, probeSent } from './event-bus-behaviour';
import type { EventBus } from '../src/event-bus';
import { createMemoryBus } from '../src/memory-bus';

// One memory bus per space: "replicas" of a space are subscriptions in the same process.
const buses = new Map<string, EventBus>();

describeEventBusBehaviour('memory', {
  async open(space) {
    let bus = buses.get(space);
    if (!bus) {
      bus = createMemoryBus({ timings: behaviourTimings });
      buses.set(space, bus);
    }
    return bus;
  },
  async cleanup(space) {
    buses.delete(space);
  },
});

describe('memory bus', () => {
  it('says what it is', () => {
    expect(createMemoryBus().kind).toBe('memory');
  });

  it('forgets event ids after the dedupe window', async () => {
    const bus = createMemoryBus({ dedupeWindowMs: 50 });
    const first = await bus.publish(probeSent, { n: 1, tag: 'again' }, { eventId: 'evt-window' });

    await vi.waitFor(
      async () =>
        expect(await bus.publish(probeSent, { n: 1, tag: 'again' }, { eventId: 'evt-window' })).toEqual({
          eventId: 'evt-window',
          duplicate: false,
        }),
      {
        timeout: 20_000,
        interval: 20,
      },
    );

    expect(first.duplicate).toBe(false);
    await bus.close();
  });

  it('keeps events for a consumer whose only subscription stopped, as a durable consumer does', async () => {
    const bus = createMemoryBus({ timings: behaviourTimings });
    const seen: number[] = [];
    const subscription = await bus.subscribe('probe-durable', probeSent, async (event) => void seen.push(event.data.n));
    await subscription.stop();

    await bus.publish(probeSent, { n: 7, tag: 'while-away' });
    await bus.subscribe('probe-durable', probeSent, async (event) => void seen.push(event.data.n));

    await vi.waitFor(() => expect(seen).toEqual([7]), { timeout: 20_000, interval: 20 });
    await bus.close();
  });
});
