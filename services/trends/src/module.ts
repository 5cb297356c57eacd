import type { TRPCClient } from '@trpc/client';
import type { Llm } from '@vrs/ai';
import type { EventBus } from '@vrs/bus';
import { createClock, type Logger, type ServiceModule } from '@vrs/kit';
import type { ProviderRouter } from '@vrs/provider';
import type { Store } from '@vrs/store';
import { createPlansRepo } from './repo/plans-repo';
import { createSnapshotsRepo } from './repo/snapshots-repo';
import { createTrendsRouter, type TrendsRouter } from './router';
import type { TrendsModuleConfig } from './trends-deps';

export interface TrendsModuleOptions {
  store: Store;
  bus: EventBus;
  logger: Logger;
  provider: TRPCClient<ProviderRouter>;
  llm: Llm | null;
  config: TrendsModuleConfig;
}

export async function createTrendsModule({
  store,
  bus,
  logger,
  provider,
  llm,
  config,
}: TrendsModuleOptions): Promise<ServiceModule<TrendsRouter>> {
  const snapshots = createSnapshotsRepo(store);
  const plans = createPlansRepo(store);
  const clock = createClock();
  return {
    name: 'trends',
    router: createTrendsRouter({ provider, llm, snapshots, plans, bus, clock, logger, config }),
    async start() {
      await Promise.all([snapshots.ensureIndexes(), plans.ensureIndexes(), bus.ensureStreams(['trends'])]);
      logger.info({ models: llm?.models ?? [], clockControl: config.clockControl }, 'trends started');
    },
    // The store, bus and provider client belong to the host.
    async stop() {},
  };
}
