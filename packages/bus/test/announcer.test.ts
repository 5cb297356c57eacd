import { afterEach, describe, expect, it } from 'vitest';
import { createAnnouncer } from '../src/announcer';
import type { EventBus } from '../src/event-bus';
import { probeSent } from './event-bus-behaviour';
import { openTestBus } from '@vrs/testing/test-bus';

describe('announcer', () => {
  let bus: EventBus | undefined;
  afterEach(async () => {
    await bus?.close();
    bus = undefined;
  });

  it('returns before the publication is acknowledged; settled() waits for it, and the event is on the stream then', async () => {
    bus = await openTestBus('announcer');
    await bus.ensureStreams([probeSent.service]);
    const received: number[] = [];
    await bus.subscribe('announcer-test', probeSent, async (event) => {
      received.push(event.data.n);
    });
    let acknowledge!: () => void;
    const acknowledged = new Promise<void>((resolve) => {
      acknowledge = resolve;
    });
    const real = bus;
    const slow = Object.assign(Object.create(real) as EventBus, {
      publish: (async (definition, data, options) => {
        await acknowledged;
        return real.publish(definition, data, options);
      }) satisfies EventBus['publish'],
    });
    const announcer = createAnnouncer(slow);
    const lost: unknown[] = [];
    announcer.announce(probeSent, { n: 1, tag: 'announced' }, (error) => lost.push(error));
    let settled = false;
    const settling = announcer.settled().then(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    acknowledge();
    await settling;
    expect(lost).toEqual([]);
    await expect.poll(() => received).toEqual([1]);
  });

  it('hands a failed publication to its whenLost, never to the caller', async () => {
    bus = await openTestBus('announcer');
    await bus.close();
    const announcer = createAnnouncer(bus);
    const lost: unknown[] = [];
    expect(() => announcer.announce(probeSent, { n: 2, tag: 'lost' }, (error) => lost.push(error))).not.toThrow();
    await announcer.settled();
    expect(lost).toHaveLength(1);
    bus = undefined;
  });
});
