import type { AnyRouter } from '@trpc/server';
import { ConfigError, createServiceClient, type Logger } from '@vrs/kit';
import type { EventBus } from '@vrs/bus';
import type { GatewayConfig } from './config';
import type { GatewayServices } from './services';

/**
 * Connects the gateway to its services. In `inprocess` mode it hosts them here (`hostServices`,
 * loaded only then); in `http` mode it calls the service processes at their *_SERVICE_URL with the
 * internal token.
 */
export async function connectServices(config: GatewayConfig, options: { bus: EventBus; logger: Logger }) {
  if (config.SERVICES_MODE === 'inprocess') {
    const { hostServices } = await import('./hosted-services');
    return hostServices(config, options);
  }
  // loadConfig refuses http mode without the token; this names the setting should that ever change.
  const internalToken = config.INTERNAL_TOKEN;
  if (!internalToken) throw new ConfigError(['INTERNAL_TOKEN: required when SERVICES_MODE=http (services refuse calls without it)']);
  const client = <TRouter extends AnyRouter>(url: string) =>
    createServiceClient<TRouter>({
      mode: 'http',
      url,
      internalToken,
      caller: 'gateway',
      timeoutMs: config.SERVICE_CALL_TIMEOUT_MS,
    });
  const services: GatewayServices = {
    billing: client(config.BILLING_SERVICE_URL),
    research: client(config.RESEARCH_SERVICE_URL),
    provider: client(config.PROVIDER_SERVICE_URL),
    trends: client(config.TRENDS_SERVICE_URL),
    monitoring: client(config.MONITORING_SERVICE_URL),
    agents: client(config.AGENTS_SERVICE_URL),
  };
  return { services, internalUrls: {}, close: async () => undefined };
}
