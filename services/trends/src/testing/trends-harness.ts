import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Llm } from '@vrs/ai';
import { createCallerFactory, createServiceClient, rootLogger } from '@vrs/kit';
import { createProviderModule, type ProviderRouter } from '@vrs/provider';
import { openStore } from '@vrs/store';
import { replayYouTubeConfig, startReplay } from '@vrs/testing/youtube-replay';
import { openTestBus } from '@vrs/testing/test-bus';
import { createTrendsModule } from '../module';

/**
 * A started trends module beside a provider module, as `npm start` hosts them: the provider is
 * called through the in-process service client, its YouTube client points at a fake upstream
 * replaying the project's fixtures (the "cold brew" topic among them). Embedded stores in a temp
 * dir, an in-process bus, and a caller of the trends router.
 */
export async function startTrends(options: { llm?: Llm | null; clockControl?: boolean } = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'vrs-trends-'));
  const [providerStore, trendsStore] = await Promise.all([
    openStore({ service: 'provider', dataDir }),
    openStore({ service: 'trends', dataDir }),
  ]);
  const bus = await openTestBus('trends');
  const fake = await startReplay();
  const logger = rootLogger.child({ component: 'trends-test' }, { level: 'silent' });
  const provider = await createProviderModule({
    store: providerStore,
    bus,
    logger,
    config: {
      youtube: replayYouTubeConfig(fake.url),
    },
  });
  const trends = await createTrendsModule({
    store: trendsStore,
    bus,
    logger,
    provider: createServiceClient<ProviderRouter>({ mode: 'inprocess', router: provider.router, caller: 'trends' }),
    llm: options.llm ?? null,
    config: { clockControl: options.clockControl ?? true, enrichConcurrency: 30 },
  });
  await Promise.all([provider.start(), trends.start()]);
  return {
    call: createCallerFactory(trends.router)({ requestId: 'req_test', caller: 'test' }),
    fake,
    store: trendsStore,
    async close() {
      await Promise.all([trends.stop(), provider.stop()]);
      await bus.close();
      await Promise.all([providerStore.close(), trendsStore.close()]);
      await fake.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type TrendsHarness = Awaited<ReturnType<typeof startTrends>>;
