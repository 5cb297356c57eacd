import { afterEach, describe, expect, it, vi } from 'vitest';
import { hasRecorded, reportMissingShared, useReplay, testClient } from '@vrs/testing/youtube-replay';
import { createResilience } from './resilience';

reportMissingShared('resilience');

const reel = 'reel/reel_item_watch';

describe.skipIf(!hasRecorded)('retries, timeouts and the circuit breaker against the fake upstream', () => {
  const fake = useReplay();

  it('retries injected 503s and then succeeds', async () => {
    fake.addFault({ match: { endpoint: reel }, kind: 'status', status: 503, times: 2 });
    const video = await testClient(fake, { retries: 2 }).getVideo('rCAS2eD-mcw');
    expect(video.id).toBe('rCAS2eD-mcw');
    expect(fake.hits().byEndpoint[reel]).toBe(3);
  });

  it('gives up after the bounded retries with a transient upstream_error', async () => {
    fake.addFault({ match: { endpoint: reel }, kind: 'status', status: 503 });
    const error = await testClient(fake, { retries: 2 })
      .getVideo('rCAS2eD-mcw')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', reason: 'upstream_error', transient: true, httpStatus: 503 });
    expect(fake.hits().byEndpoint[reel]).toBe(3);
  });

  it('maps 429 to rate_limited (and retries it)', async () => {
    fake.addFault({ match: { endpoint: reel }, kind: 'status', status: 429 });
    const error = await testClient(fake, { retries: 1 })
      .getVideo('rCAS2eD-mcw')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', reason: 'rate_limited', transient: true });
    expect(fake.hits().byEndpoint[reel]).toBe(2);
  });

  it('does not retry a non-transient answer', async () => {
    fake.addFault({ match: { endpoint: reel }, kind: 'status', status: 403 });
    const error = await testClient(fake, { retries: 3 })
      .getVideo('rCAS2eD-mcw')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'upstream_error', transient: false, httpStatus: 403 });
    expect(fake.hits().byEndpoint[reel]).toBe(1);
  });

  it('times out an upstream that never answers', async () => {
    // The fake never answers: only the client's timeout ends the call (no bound on the clock, which a busy machine stretches).
    fake.addFault({ match: { endpoint: reel }, kind: 'timeout' });
    const error = await testClient(fake, { timeoutMs: 150, retries: 1 })
      .getVideo('rCAS2eD-mcw')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', reason: 'timeout', transient: true });
    expect(fake.hits().byEndpoint[reel]).toBe(2);
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens the circuit after consecutive failures, stops calling upstream, and closes again', async () => {
    // The breaker reads Date.now(): frozen, however slow this machine is, the circuit cannot half-open
    // before the test says the time has passed. Timers and sockets stay real.
    vi.useFakeTimers({ toFake: ['Date'] });
    const client = testClient(fake, { retries: 0, breaker: { failureThreshold: 3, halfOpenAfterMs: 300 } });
    // YouTube refuses players only. The WEB player and /next asked beside each player still answer,
    // but they are optional reads: their successes do not keep the circuit closed.
    fake.addFault({ match: { endpoint: reel }, kind: 'status', status: 500 });
    for (let i = 0; i < 3; i += 1) await expect(client.getVideo('rCAS2eD-mcw')).rejects.toMatchObject({ reason: 'upstream_error' });
    expect(fake.hits().byEndpoint).toMatchObject({ [reel]: 3, player: 3, next: 3 });

    // Open: calls fail fast and YouTube sees none of them, optional reads included.
    for (let i = 0; i < 5; i += 1)
      await expect(client.getVideo('rCAS2eD-mcw')).rejects.toMatchObject({ reason: 'circuit_open', transient: true });
    expect(fake.hits().total).toBe(9);

    // Still open just before the configured time; half-open after it: one trial call goes through and,
    // succeeding, closes it.
    fake.reset();
    vi.advanceTimersByTime(299);
    await expect(client.getVideo('rCAS2eD-mcw')).rejects.toMatchObject({ reason: 'circuit_open' });
    expect(fake.hits().byEndpoint[reel] ?? 0).toBe(0);
    vi.advanceTimersByTime(1);
    await expect(client.getVideo('rCAS2eD-mcw')).resolves.toMatchObject({ id: 'rCAS2eD-mcw' });
    await expect(client.getVideo('rCAS2eD-mcw')).resolves.toMatchObject({ id: 'rCAS2eD-mcw' });
    expect(fake.hits().byEndpoint[reel]).toBe(2);
  });

  it('bounds the requests in flight', async () => {
    fake.setLatency(100);
    const client = testClient(fake, { maxConcurrency: 2 });
    const started = Date.now();
    // Three getVideo calls make 9 InnerTube requests at once (a player, the WEB player and /next each),
    // all to www.youtube.com. Unbounded that is one round of 100 ms; through two slots, five.
    await Promise.all(['rCAS2eD-mcw', 'rCAS2eD-mcw', 'rCAS2eD-mcw'].map((id) => client.getVideo(id)));
    expect(Date.now() - started).toBeGreaterThanOrEqual(490);
  });
});

describe('the concurrency limit, per upstream host', () => {
  it('holds each host to maxConcurrency requests in flight, without one host queuing behind another', async () => {
    const guarded = createResilience({
      timeoutMs: 5_000,
      retries: 0,
      retryBaseDelayMs: 1,
      breaker: { failureThreshold: 100, halfOpenAfterMs: 1_000 },
      maxConcurrency: 2,
    });
    const inFlight = new Map<string, number>();
    const mostAtOnce = new Map<string, number>();
    const waiting: Array<() => void> = [];
    const exchange = (host: string) =>
      guarded(host, async () => {
        inFlight.set(host, (inFlight.get(host) ?? 0) + 1);
        mostAtOnce.set(host, Math.max(mostAtOnce.get(host) ?? 0, inFlight.get(host)!));
        await new Promise<void>((resolve) => waiting.push(resolve));
        inFlight.set(host, inFlight.get(host)! - 1);
        return host;
      });

    const players = Array.from({ length: 5 }, () => exchange('youtubei.googleapis.com'));
    const pages = Array.from({ length: 3 }, () => exchange('www.youtube.com'));
    await vi.waitFor(() => expect(waiting).toHaveLength(4));
    // Two of each host started: the googleapis queue did not hold back www.youtube.com.
    expect(Object.fromEntries(inFlight)).toEqual({ 'youtubei.googleapis.com': 2, 'www.youtube.com': 2 });

    const releasing = setInterval(() => {
      for (const release of waiting.splice(0)) release();
    }, 5);
    try {
      await Promise.all([...players, ...pages]);
    } finally {
      clearInterval(releasing);
    }
    expect(Object.fromEntries(mostAtOnce)).toEqual({ 'youtubei.googleapis.com': 2, 'www.youtube.com': 2 });
  });
});
