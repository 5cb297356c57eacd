import { runServiceProcess } from '@vrs/runtime';
import { billingEnvSchema, type BillingConfig } from './config';
import { createBillingModule } from './module';

await runServiceProcess({
  service: 'billing',
  envSchema: billingEnvSchema,
  ownUrl: (config: BillingConfig) => config.BILLING_SERVICE_URL,
  createModule: (deps, config: BillingConfig) =>
    createBillingModule({ ...deps, config: { startingCredits: config.BILLING_STARTING_CREDITS } }),
});
