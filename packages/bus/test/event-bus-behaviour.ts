/**
 * The behaviour every EventBus must show, written once and run against each implementation by its
 * test file (this file holds no tests of its own).
 */
import { afterEach, assert, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineEvent, researchEvidenceAdded, type EventData, type EventDefinition, type EventEnvelope } from '@vrs/contracts';
import type { RequestContext } from '@vrs/kit';
import type { BusTimings } from '../src/bus-timings';
import type { EventBus } from '../src/event-bus';

export const behaviourTimings: BusTimings = { ackWaitMs: 5_000, maxDeliver: 3, redeliveryBackoffMs: [50] };

export interface BusHarness {
  /** A bus in `space` (with `behaviourTimings`); buses of one space share events, as replicas sharing a namespace do. */
  open(space: string): Promise<EventBus>;
  /** Removes what a space left behind once its buses are closed. */
  cleanup(space: string): Promise<void>;
  /** Events of `consumer` not yet acknowledged or terminated, when the implementation can tell. */
  unsettled?(space: string, consumer: string, definition: EventDefinition): Promise<number>;
}

export const probeSent = defineEvent('research.probe.sent', z.object({ n: z.number().int(), tag: z.string().min(1) }));
type Probe = EventEnvelope<EventData<typeof probeSent>>;

const poll = { timeout: 10_000, interval: 20 };

export function describeEventBusBehaviour(name: string, harness: BusHarness): void {
  describe(`${name}: event bus behaviour`, () => {
    let spaceCounter = 0;
    let space = '';
    const opened: EventBus[] = [];

    async function open(): Promise<EventBus> {
      const bus = await harness.open(space);
      opened.push(bus);
      return bus;
    }

    function nextSpace(): string {
      space = `s${++spaceCounter}`;
      return space;
    }

    /** Publishes a sentinel and waits for it: events published before it on one subscription have been seen by then. */
    async function flush(bus: EventBus, seen: Probe[]): Promise<void> {
      const tag = `sentinel-${Math.random()}`;
      await bus.publish(probeSent, { n: -1, tag });
      await vi.waitFor(() => expect(seen.some((event) => event.data.tag === tag)).toBe(true), poll);
    }

    async function expectSettled(consumer: string, definition: EventDefinition): Promise<void> {
      const unsettled = harness.unsettled;
      if (unsettled) await vi.waitFor(async () => expect(await unsettled(space, consumer, definition)).toBe(0), poll);
    }

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((bus) => bus.close()));
      await harness.cleanup(space);
    });

    it('delivers a published event with its payload and the publishing request id', async () => {
      nextSpace();
      const bus = await open();
      await bus.ensureStreams(['research']);
      const received: Array<{ event: EventEnvelope<EventData<typeof researchEvidenceAdded>>; context?: RequestContext }> = [];
      await bus.subscribe('evidence-indexer', researchEvidenceAdded, async (event, context) => {
        received.push({ event, context });
      });
      const data = { accountId: 'acc_1', projectId: '5b1f7c43-8a3a-4c53-9a1e-8d0f8f6f1c11', evidenceIds: ['ev_1', 'ev_2'] };

      const result = await bus.publish(researchEvidenceAdded, data, { requestId: 'req_behaviour_1' });

      expect(result.duplicate).toBe(false);
      await vi.waitFor(() => expect(received).toHaveLength(1), poll);
      const [first] = received;
      assert(first, 'one event received');
      const { event, context } = first;
      expect(event).toMatchObject({ id: result.eventId, type: 'research.evidence.added', requestId: 'req_behaviour_1', data });
      expect(new Date(event.occurredAt).toISOString()).toBe(event.occurredAt);
      expect(context).toEqual({ requestId: 'req_behaviour_1', caller: 'event:research.evidence.added' });
    });

    it('gives an event published outside any request a fresh request id for its handler', async () => {
      nextSpace();
      const bus = await open();
      const received: Array<{ event: Probe; context?: RequestContext }> = [];
      await bus.subscribe('probe-context', probeSent, async (event, context) => {
        received.push({ event, context });
      });

      await bus.publish(probeSent, { n: 1, tag: 'no-request' });

      await vi.waitFor(() => expect(received).toHaveLength(1), poll);
      expect(received[0]?.event.requestId).toBeUndefined();
      expect(received[0]?.context).toEqual({ requestId: expect.stringMatching(/^req_/), caller: 'event:research.probe.sent' });
    });

    it('drops a second publication of the same event id', async () => {
      nextSpace();
      const bus = await open();
      const seen: Probe[] = [];
      await bus.subscribe('probe-dedupe', probeSent, async (event) => {
        seen.push(event);
      });

      const first = await bus.publish(probeSent, { n: 1, tag: 'once' }, { eventId: 'evt-dedupe-1' });
      const second = await bus.publish(probeSent, { n: 1, tag: 'once' }, { eventId: 'evt-dedupe-1' });
      await flush(bus, seen);

      expect(first).toEqual({ eventId: 'evt-dedupe-1', duplicate: false });
      expect(second).toEqual({ eventId: 'evt-dedupe-1', duplicate: true });
      expect(seen.filter((event) => event.id === 'evt-dedupe-1')).toHaveLength(1);
    });

    it('redelivers an event whose handler threw, then acknowledges it', async () => {
      nextSpace();
      const bus = await open();
      const attempts: Probe[] = [];
      const seen: Probe[] = [];
      await bus.subscribe('probe-retry', probeSent, async (event) => {
        seen.push(event);
        if (event.data.tag !== 'flaky') return;
        attempts.push(event);
        if (attempts.length === 1) throw new Error('transient failure');
      });

      await bus.publish(probeSent, { n: 1, tag: 'flaky' });

      await vi.waitFor(() => expect(attempts).toHaveLength(2), poll);
      await flush(bus, seen);
      await expectSettled('probe-retry', probeSent);
      expect(attempts).toHaveLength(2);
      expect(attempts[1]?.id).toBe(attempts[0]?.id);
    });

    it('gives up on an event after maxDeliver failed deliveries', async () => {
      nextSpace();
      const bus = await open();
      let attempts = 0;
      await bus.subscribe('probe-poison', probeSent, async () => {
        attempts += 1;
        throw new Error('always fails');
      });

      await bus.publish(probeSent, { n: 1, tag: 'poison' });

      await vi.waitFor(() => expect(attempts).toBe(behaviourTimings.maxDeliver), poll);
      await expectSettled('probe-poison', probeSent);
      expect(attempts).toBe(behaviourTimings.maxDeliver);
    });

    it('keeps an event that failed every delivery as a dead letter, and replays it with its original id', async () => {
      nextSpace();
      const bus = await open();
      let broken = true;
      let failures = 0;
      const handled: Probe[] = [];
      await bus.subscribe('probe-dead', probeSent, async (event) => {
        if (broken) throw new Error(`handler broken (failure ${++failures})`);
        handled.push(event);
      });
      const data = { n: 1, tag: 'doomed' };

      const { eventId } = await bus.publish(probeSent, data);

      await vi.waitFor(async () => expect(await bus.deadLetters()).toHaveLength(1), poll);
      await expectSettled('probe-dead', probeSent);
      const [letter] = await bus.deadLetters({ consumer: 'probe-dead' });
      assert(letter, 'one dead letter');
      expect(letter).toMatchObject({
        consumer: 'probe-dead',
        attempts: behaviourTimings.maxDeliver,
        error: `handler broken (failure ${behaviourTimings.maxDeliver})`,
        envelope: { id: eventId, type: probeSent.type, data },
      });
      expect(new Date(letter.deadAt).toISOString()).toBe(letter.deadAt);
      expect(await bus.deadLetters({ consumer: 'probe-other' })).toEqual([]);
      expect(handled).toEqual([]);

      broken = false;
      const { replayed } = await bus.replayDeadLetters({ consumer: 'probe-dead' });

      expect(replayed).toEqual([letter]);
      await vi.waitFor(() => expect(handled).toHaveLength(1), poll);
      expect(handled[0]).toMatchObject({ id: eventId, data });
      expect(await bus.deadLetters()).toEqual([]);
    });

    it('replays only the asked consumer’s dead letters, oldest first, up to the limit', async () => {
      nextSpace();
      const bus = await open();
      let broken = true;
      const handled = { a: [] as number[], b: [] as number[] };
      for (const name of ['a', 'b'] as const) {
        await bus.subscribe(`probe-dead-${name}`, probeSent, async (event) => {
          if (broken) throw new Error('handler broken');
          handled[name].push(event.data.n);
        });
      }
      for (const n of [1, 2, 3]) await bus.publish(probeSent, { n, tag: 'doomed' });
      await vi.waitFor(async () => expect(await bus.deadLetters()).toHaveLength(6), poll);
      const deadOfA = (await bus.deadLetters({ consumer: 'probe-dead-a' })).map((letter) => letter.envelope.data);
      expect(await bus.deadLetters({ consumer: 'probe-dead-a', limit: 2 })).toHaveLength(2);
      broken = false;

      const { replayed } = await bus.replayDeadLetters({ consumer: 'probe-dead-a', limit: 2 });

      expect(replayed.map((letter) => letter.envelope.data)).toEqual(deadOfA.slice(0, 2));
      // A replay is a republication: every consumer of the event gets it, which idempotent handlers allow.
      await vi.waitFor(() => expect(handled.a).toHaveLength(2), poll);
      await vi.waitFor(() => expect(handled.b).toHaveLength(2), poll);
      expect((await bus.deadLetters({ consumer: 'probe-dead-a' })).map((letter) => letter.envelope.data)).toEqual(deadOfA.slice(2));
      expect(await bus.deadLetters({ consumer: 'probe-dead-b' })).toHaveLength(3);
    });

    it('rejects an invalid payload at publish and sends nothing', async () => {
      nextSpace();
      const bus = await open();
      const seen: Probe[] = [];
      await bus.subscribe('probe-invalid', probeSent, async (event) => {
        seen.push(event);
      });

      await expect(bus.publish(probeSent, { n: 1.5, tag: '' })).rejects.toThrow(/Invalid payload for event research\.probe\.sent/);
      await flush(bus, seen);
      expect(seen).toHaveLength(1);
    });

    it('splits events between subscriptions sharing a consumer name, without loss or double processing', async () => {
      nextSpace();
      const replicas = [await open(), await open()];
      const handledBy = replicas.map((): number[] => []);
      for (const [index, replica] of replicas.entries()) {
        const handled = handledBy[index] ?? [];
        await replica.subscribe('probe-workers', probeSent, async (event) => {
          handled.push(event.data.n);
          // Some work, so both replicas get a share.
          await new Promise((resolve) => setTimeout(resolve, 5));
        });
      }
      const total = 40;

      await Promise.all(Array.from({ length: total }, (_, n) => replicas[n % 2]?.publish(probeSent, { n, tag: 'work' })));

      const all = () => handledBy.flat();
      await vi.waitFor(() => expect(new Set(all()).size).toBe(total), poll);
      await expectSettled('probe-workers', probeSent);
      expect(all().sort((a, b) => a - b)).toEqual(Array.from({ length: total }, (_, n) => n));
      expect(handledBy[0]?.length).toBeGreaterThan(0);
      expect(handledBy[1]?.length).toBeGreaterThan(0);
    });

    it('handles one event at a time per subscription unless told otherwise', async () => {
      nextSpace();
      const bus = await open();
      await bus.ensureStreams(['research']);
      let running = 0;
      let mostAtOnce = 0;
      const seen: Probe[] = [];
      await bus.subscribe('probe-sequential', probeSent, async (event) => {
        running++;
        mostAtOnce = Math.max(mostAtOnce, running);
        await new Promise((resolve) => setTimeout(resolve, 20));
        running--;
        seen.push(event);
      });

      await Promise.all(Array.from({ length: 4 }, (_, n) => bus.publish(probeSent, { n, tag: 'one-by-one' })));

      await flush(bus, seen);
      expect(seen.map((event) => event.data.n).filter((n) => n >= 0)).toHaveLength(4);
      expect(mostAtOnce).toBe(1);
    });

    it('handles up to `concurrency` events at once on one subscription, redelivers a failed one, and stops after all in flight', async () => {
      nextSpace();
      const bus = await open();
      await bus.ensureStreams(['research']);
      const gates = new Map<number, () => void>();
      const started: number[] = [];
      const finished: number[] = [];
      const failedOnce = new Set<number>();
      const subscription = await bus.subscribe(
        'probe-concurrent',
        probeSent,
        async (event) => {
          const { n } = event.data;
          started.push(n);
          await new Promise<void>((resolve) => gates.set(n, resolve));
          if (n === 1 && !failedOnce.has(n)) {
            failedOnce.add(n);
            throw new Error('first delivery of 1 fails');
          }
          finished.push(n);
        },
        { concurrency: 3 },
      );

      for (let n = 0; n < 5; n++) await bus.publish(probeSent, { n, tag: 'overlap' });

      await vi.waitFor(() => expect(started).toHaveLength(3), poll);
      // Three are held open; a fourth must not start while they are.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(started).toHaveLength(3);
      expect(finished).toEqual([]);

      const releaseAll = () => {
        for (const [n, release] of gates) {
          gates.delete(n);
          release();
        }
      };
      const releasing = setInterval(releaseAll, 10);
      try {
        await vi.waitFor(() => expect([...finished].sort()).toEqual([0, 1, 2, 3, 4]), poll);
      } finally {
        clearInterval(releasing);
      }
      expect(started.filter((n) => n === 1)).toHaveLength(2);
      await expectSettled('probe-concurrent', probeSent);

      // stop() waits for every handler in flight, not only the first.
      for (let n = 10; n < 12; n++) await bus.publish(probeSent, { n, tag: 'overlap' });
      await vi.waitFor(() => expect(started.filter((n) => n >= 10)).toHaveLength(2), poll);
      const stopped = subscription.stop();
      releaseAll();
      await stopped;
      expect(finished.filter((n) => n >= 10).sort()).toEqual([10, 11]);
    });

    it('refuses a concurrency that is not a positive integer', async () => {
      nextSpace();
      const bus = await open();
      await expect(bus.subscribe('probe-bad-concurrency', probeSent, async () => {}, { concurrency: 0 })).rejects.toThrow(/concurrency/);
    });

    it('lets a handler in flight finish when the bus closes', async () => {
      nextSpace();
      const bus = await open();
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let started = false;
      let finished = false;
      await bus.subscribe('probe-drain', probeSent, async () => {
        started = true;
        await gate;
        await new Promise((resolve) => setTimeout(resolve, 50));
        finished = true;
      });
      await bus.publish(probeSent, { n: 1, tag: 'slow' });
      await vi.waitFor(() => expect(started).toBe(true), poll);

      const closed = bus.close();
      release();
      await closed;

      expect(finished).toBe(true);
      await expect(bus.publish(probeSent, { n: 2, tag: 'late' })).rejects.toThrow(/closed/);
      expect(await bus.health()).toMatchObject({ ok: false });
    });

    it('refuses one consumer name for two different events', async () => {
      nextSpace();
      const bus = await open();
      await bus.subscribe('probe-one-event', probeSent, async () => {});

      await expect(bus.subscribe('probe-one-event', researchEvidenceAdded, async () => {})).rejects.toThrow(/one consumer name per event/);
    });

    it('reports itself healthy while open', async () => {
      nextSpace();
      const bus = await open();
      expect(await bus.health()).toEqual({ ok: true });
    });
  });
}
