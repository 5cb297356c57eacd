import type { EventBus } from '@vrs/bus';
import type { Logger, ServiceModule } from '@vrs/kit';
import type { Store } from '@vrs/store';
import { createYouTubeClient } from '@vrs/youtube';
import type { ProviderModuleConfig } from './provider-deps';
import { defaultVersionsKept } from './config';
import { createVersionsRepo } from './repo/versions-repo';
import { createProviderRouter, type ProviderRouter } from './router';
import { createVersionedReads } from './versions/versioned-reads';
import { withYouTubeMetrics, youtubeBreakerMetric } from './upstream/youtube-metrics';

export interface ProviderModuleOptions {
  store: Store;
  bus: EventBus;
  logger: Logger;
  config: ProviderModuleConfig;
}

export async function createProviderModule({ store, bus, logger, config }: ProviderModuleOptions): Promise<ServiceModule<ProviderRouter>> {
  const versions = createVersionsRepo(store, { kept: config.versionsKept ?? defaultVersionsKept });
  const youtube = withYouTubeMetrics(createYouTubeClient({ ...config.youtube, onBreakerState: youtubeBreakerMetric }));
  const reads = createVersionedReads({ versions, bus, logger });
  return {
    name: 'provider',
    router: createProviderRouter({ youtube, versions, reads, egress: config.youtube.proxyUrl ? 'proxy' : 'direct' }),
    async start() {
      await Promise.all([versions.ensureIndexes(), bus.ensureStreams(['provider'])]);
      logger.info(
        { origin: config.youtube.origin ?? 'https://www.youtube.com', proxy: Boolean(config.youtube.proxyUrl) },
        'provider started',
      );
    },
    // The store and bus belong to the host, which closes them after this; the YouTube client holds no
    // connections of its own to close. Announcements still in flight go out before the bus closes.
    async stop() {
      await reads.settled();
    },
  };
}
