import type { BillingRouter } from '@vrs/billing';
import { createServiceClient } from '@vrs/kit';
import type { ProviderRouter } from '@vrs/provider';
import { runServiceProcess } from '@vrs/runtime';
import type { TrendsRouter } from '@vrs/trends';
import { monitoringEnvSchema, monitoringModuleConfigOf, type MonitoringConfig } from './config';
import { createMonitoringModule } from './module';

await runServiceProcess({
  service: 'monitoring',
  envSchema: monitoringEnvSchema,
  ownUrl: (config: MonitoringConfig) => config.MONITORING_SERVICE_URL,
  createModule: (deps, config: MonitoringConfig, internalToken) => {
    // A process of its own reaches the services it checks over HTTP (runServiceProcess requires the token).
    const http = { internalToken, caller: 'monitoring', timeoutMs: config.SERVICE_CALL_TIMEOUT_MS };
    return createMonitoringModule({
      ...deps,
      provider: createServiceClient<ProviderRouter>({ mode: 'http', url: config.PROVIDER_SERVICE_URL, ...http }),
      trends: createServiceClient<TrendsRouter>({ mode: 'http', url: config.TRENDS_SERVICE_URL, ...http }),
      billing: createServiceClient<BillingRouter>({ mode: 'http', url: config.BILLING_SERVICE_URL, ...http }),
      config: monitoringModuleConfigOf(config),
    });
  },
});
