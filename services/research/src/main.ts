import { baseEnvSchema, type BaseConfig } from '@vrs/kit';
import { runServiceProcess } from '@vrs/runtime';
import { createResearchModule } from './module';

await runServiceProcess({
  service: 'research',
  envSchema: baseEnvSchema,
  ownUrl: (config: BaseConfig) => config.RESEARCH_SERVICE_URL,
  createModule: (deps) => createResearchModule(deps),
});
