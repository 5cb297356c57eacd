import { createLlm } from '@vrs/ai';
import { componentLogger, createServiceClient } from '@vrs/kit';
import type { BillingRouter } from '@vrs/billing';
import type { ProviderRouter } from '@vrs/provider';
import type { ResearchRouter } from '@vrs/research';
import type { TrendsRouter } from '@vrs/trends';
import { runServiceProcess } from '@vrs/runtime';
import { agentsEnvSchema, agentsSettingsOf, type AgentsConfig } from './config';
import { createAgentsModule } from './module';

await runServiceProcess({
  service: 'agents',
  envSchema: agentsEnvSchema,
  ownUrl: (config: AgentsConfig) => config.AGENTS_SERVICE_URL,
  createModule: (deps, config: AgentsConfig, internalToken) => {
    const http = {
      mode: 'http' as const,
      internalToken,
      caller: 'agents',
      timeoutMs: config.SERVICE_CALL_TIMEOUT_MS,
    };
    return createAgentsModule({
      ...deps,
      provider: createServiceClient<ProviderRouter>({ ...http, url: config.PROVIDER_SERVICE_URL }),
      research: createServiceClient<ResearchRouter>({ ...http, url: config.RESEARCH_SERVICE_URL }),
      billing: createServiceClient<BillingRouter>({ ...http, url: config.BILLING_SERVICE_URL }),
      trends: createServiceClient<TrendsRouter>({ ...http, url: config.TRENDS_SERVICE_URL }),
      llm: createLlm(config, { logger: componentLogger(deps.logger, 'llm') }),
      settings: agentsSettingsOf(config),
    });
  },
});
