import { runServiceProcess } from '@vrs/runtime';
import { billingEnvSchema, type BillingConfig } from './config';
import { billingModuleConfigOf } from './billing-deps';
import { createBillingModule } from './module';

await runServiceProcess({
  service: 'billing',
  envSchema: billingEnvSchema,
  ownUrl: (config: BillingConfig) => config.BILLING_SERVICE_URL,
  createModule: (deps, config: BillingConfig) => createBillingModule({ ...deps, config: billingModuleConfigOf(config) }),
});
