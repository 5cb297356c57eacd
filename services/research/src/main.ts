import { createLlm } from '@vrs/ai';
import { componentLogger, createServiceClient } from '@vrs/kit';
import type { BillingRouter } from '@vrs/billing';
import type { ProviderRouter } from '@vrs/provider';
import { runServiceProcess } from '@vrs/runtime';
import { openSearch } from '@vrs/search';
import { researchEnvSchema, researchImportConfigOf, researchRetentionConfigOf, type ResearchConfig } from './config';
import { createResearchModule } from './module';

await runServiceProcess({
  service: 'research',
  envSchema: researchEnvSchema,
  ownUrl: (config: ResearchConfig) => config.RESEARCH_SERVICE_URL,
  createModule: async (deps, config: ResearchConfig, internalToken) => {
    const search = await openSearch({
      service: 'research',
      engine: config.SEARCH_ENGINE,
      dataDir: config.DATA_DIR,
      mongodbUrl: config.MONGODB_URL,
    });
    const http = { mode: 'http' as const, internalToken, caller: 'research', timeoutMs: config.SERVICE_CALL_TIMEOUT_MS };
    const module = await createResearchModule({
      ...deps,
      search,
      provider: createServiceClient<ProviderRouter>({ ...http, url: config.PROVIDER_SERVICE_URL }),
      billing: createServiceClient<BillingRouter>({ ...http, url: config.BILLING_SERVICE_URL }),
      llm: createLlm(config, { logger: componentLogger(deps.logger, 'llm') }),
      retention: researchRetentionConfigOf(config),
      imports: researchImportConfigOf(config),
    });
    // The search engine is closed with the module: its consumers are stopped first.
    return {
      ...module,
      async stop() {
        await module.stop();
        await search.close();
      },
    };
  },
});
