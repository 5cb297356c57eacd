import { createLlm } from '@vrs/ai';
import { componentLogger, createServiceClient } from '@vrs/kit';
import type { ProviderRouter } from '@vrs/provider';
import { runServiceProcess } from '@vrs/runtime';
import { trendsEnvSchema, trendsModuleConfigOf, type TrendsConfig } from './config';
import { createTrendsModule } from './module';

await runServiceProcess({
  service: 'trends',
  envSchema: trendsEnvSchema,
  ownUrl: (config: TrendsConfig) => config.TRENDS_SERVICE_URL,
  createModule: (deps, config: TrendsConfig, internalToken) =>
    createTrendsModule({
      ...deps,
      // A process of its own reaches the provider over HTTP (runServiceProcess requires the token).
      provider: createServiceClient<ProviderRouter>({
        mode: 'http',
        url: config.PROVIDER_SERVICE_URL,
        internalToken,
        caller: 'trends',
        timeoutMs: config.SERVICE_CALL_TIMEOUT_MS,
      }),
      llm: createLlm(config, { logger: componentLogger(deps.logger, 'llm') }),
      config: trendsModuleConfigOf(config),
    }),
});
