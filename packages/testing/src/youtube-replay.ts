import { projectDir, recordedDir, syntheticDir } from '@vrs/testing/upstreams/youtube/fixture-dirs';
import { startFakeYouTube, type FakeYouTube } from '@vrs/testing/upstreams/youtube/server';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createYouTubeClient, type YouTubeClientOptions } from '@vrs/youtube';

export { hasRecorded, hasSynthetic, reportMissingShared } from '@vrs/testing/upstreams/youtube/fixture-dirs';

/** The fake upstream over the shared recordings and the project's fixtures, on a free port. */
export function startReplay(): Promise<FakeYouTube> {
  return startFakeYouTube({ replayDirs: [recordedDir, syntheticDir, projectDir], log: () => undefined });
}

/**
 * YouTube settings for a provider in front of a fake: short timeouts, no retries, and a breaker that
 * never opens (service tests that want failures ask the fake for them; the breaker has its own test).
 */
export function replayYouTubeConfig(origin: string): YouTubeClientOptions {
  return { origin, timeoutMs: 2_000, retries: 0, retryBaseDelayMs: 5, breaker: { failureThreshold: 1_000, halfOpenAfterMs: 60_000 } };
}

/**
 * The fake upstream for a describe block: started once before its tests, reset (faults, latency,
 * selections) before each, closed after all. The returned object stands for the running fake.
 */
export function useReplay(): FakeYouTube {
  let running: FakeYouTube | undefined;
  beforeAll(async () => {
    running = await startReplay();
  });
  afterAll(() => running?.close());
  beforeEach(() => running!.reset());
  return new Proxy({} as FakeYouTube, {
    get: (_target, key) => {
      if (!running) throw new Error('the fake YouTube is used outside a test (it starts in beforeAll)');
      return Reflect.get(running, key, running);
    },
  });
}

/** A client pointed at the fake, with timings short enough for tests. */
export function testClient(fake: FakeYouTube, overrides: YouTubeClientOptions = {}) {
  return createYouTubeClient({
    origin: fake.url,
    timeoutMs: 2_000,
    retries: 2,
    retryBaseDelayMs: 5,
    breaker: { failureThreshold: 5, halfOpenAfterMs: 60_000 },
    maxConcurrency: 4,
    ...overrides,
  });
}
