import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventBus } from '@vrs/bus';
import { createCallerFactory, rootLogger } from '@vrs/kit';
import { openStore } from '@vrs/store';
import type { YouTubeClientOptions } from '@vrs/youtube';
import { startReplay } from '@vrs/testing/youtube-replay';
import { openTestBus } from '@vrs/testing/test-bus';
import { createProviderModule } from '../module';

export interface PublishedEvent {
  type: string;
  data: Record<string, unknown>;
}

/** A bus that also records what was published, so tests can see the announcements. */
function recordingBus(bus: EventBus, published: PublishedEvent[]): EventBus {
  return Object.assign(Object.create(bus) as EventBus, {
    publish: (async (definition, data, options) => {
      published.push({ type: definition.type, data: data as Record<string, unknown> });
      return bus.publish(definition, data, options);
    }) satisfies EventBus['publish'],
  });
}

/**
 * A started provider module on an embedded store in its own temp dir, its YouTube client pointed at
 * a fake upstream replaying the recordings and the project's fixtures, with timings short enough
 * for tests; and a caller of its router.
 */
export async function startProvider(youtube: Partial<YouTubeClientOptions> = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'vrs-provider-'));
  const store = await openStore({ service: 'provider', dataDir });
  const published: PublishedEvent[] = [];
  const bus = await openTestBus('provider');
  const fake = await startReplay();
  const module = await createProviderModule({
    store,
    bus: recordingBus(bus, published),
    logger: rootLogger.child({ component: 'provider-test' }, { level: 'silent' }),
    config: {
      youtube: {
        origin: fake.url,
        timeoutMs: 2_000,
        retries: 1,
        retryBaseDelayMs: 5,
        breaker: { failureThreshold: 50, halfOpenAfterMs: 60_000 },
        ...youtube,
      },
    },
  });
  await module.start();
  return {
    call: createCallerFactory(module.router)({ requestId: 'req_test', caller: 'test' }),
    fake,
    store,
    published,
    async close() {
      await module.stop();
      await bus.close();
      await store.close();
      await fake.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type ProviderHarness = Awaited<ReturnType<typeof startProvider>>;
