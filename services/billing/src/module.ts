import type { EventBus } from '@vrs/bus';
import type { Logger, ServiceModule } from '@vrs/kit';
import type { Store } from '@vrs/store';
import type { BillingModuleConfig } from './billing-deps';
import { createBillingRepo } from './repo';
import { billingRouter, type BillingRouter } from './router';

export interface BillingModuleOptions {
  store: Store;
  /** Every module is handed the same dependencies; billing publishes and consumes no events yet. */
  bus: EventBus;
  logger: Logger;
  config: BillingModuleConfig;
}

export async function createBillingModule({ store, logger, config }: BillingModuleOptions): Promise<ServiceModule<BillingRouter>> {
  const repo = createBillingRepo(store);
  return {
    name: 'billing',
    router: billingRouter({ repo, config, logger }),
    async start() {
      // The demoUser and key-hash unique indexes are what make ensureDemo and key lookups correct,
      // so no request may be served before they exist.
      await repo.createIndexes();
      logger.info({ startingCredits: config.startingCredits }, 'billing started');
    },
    // The store and bus belong to the host, which closes them; billing holds nothing of its own.
    async stop() {},
  };
}
