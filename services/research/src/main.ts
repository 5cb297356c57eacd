import { createLlm } from '@vrs/ai';
import { createServiceClient } from '@vrs/kit';
import type { BillingRouter } from '@vrs/billing';
import type { ProviderRouter } from '@vrs/provider';
import { runServiceProcess } from '@vrs/runtime';
import { researchEnvSchema, type ResearchConfig } from './config';
import { createResearchModule } from './module';

await runServiceProcess({
  service: 'research',
  envSchema: researchEnvSchema,
  ownUrl: (config: ResearchConfig) => config.RESEARCH_SERVICE_URL,
  createModule: (deps, config: ResearchConfig) =>
    createResearchModule({
      ...deps,
      provider: createServiceClient<ProviderRouter>({
        mode: 'http',
        url: config.PROVIDER_SERVICE_URL,
        internalToken: config.INTERNAL_TOKEN!,
        caller: 'research',
        timeoutMs: config.SERVICE_CALL_TIMEOUT_MS,
      }),
      billing: createServiceClient<BillingRouter>({
        mode: 'http',
        url: config.BILLING_SERVICE_URL,
        internalToken: config.INTERNAL_TOKEN!,
        caller: 'research',
        timeoutMs: config.SERVICE_CALL_TIMEOUT_MS,
      }),
      llm: createLlm(config, { logger: deps.logger.child({ component: 'llm' }) }),
    }),
});
