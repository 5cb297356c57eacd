import { runServiceProcess } from '@vrs/runtime';
import { providerEnvSchema, youtubeClientOptionsOf, type ProviderConfig } from './config';
import { createProviderModule } from './module';

await runServiceProcess({
  service: 'provider',
  envSchema: providerEnvSchema,
  ownUrl: (config: ProviderConfig) => config.PROVIDER_SERVICE_URL,
  createModule: (deps, config: ProviderConfig) =>
    createProviderModule({ ...deps, config: { youtube: youtubeClientOptionsOf(config), versionsKept: config.PROVIDER_VERSIONS_KEPT } }),
});
