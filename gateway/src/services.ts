import { forRequest, type RequestContext } from '@vrs/kit';
import type { TRPCClient } from '@trpc/client';
import type { BillingRouter } from '@vrs/billing';
import type { ResearchRouter } from '@vrs/research';
import type { ProviderRouter } from '@vrs/provider';
import type { TrendsRouter } from '@vrs/trends';
import type { MonitoringRouter } from '@vrs/monitoring';
import type { AgentsRouter } from '@vrs/agents';

/** The services the gateway calls, however they are reached (in-process or over HTTP). */
export interface GatewayServices {
  billing: TRPCClient<BillingRouter>;
  research: TRPCClient<ResearchRouter>;
  provider: TRPCClient<ProviderRouter>;
  trends: TRPCClient<TrendsRouter>;
  monitoring: TRPCClient<MonitoringRouter>;
  agents: TRPCClient<AgentsRouter>;
}

/**
 * The clients bound to one request (`forRequest`): every call carries its id, so the services' ledger
 * lines and logs name it. Each is bound when first used: a request calls one or two of the six.
 */
export function servicesFor(services: GatewayServices, context: RequestContext): GatewayServices {
  const bound: Partial<GatewayServices> = {};
  const bind = <K extends keyof GatewayServices>(name: K): GatewayServices[K] => (bound[name] ??= forRequest(services[name], context));
  return {
    get billing() {
      return bind('billing');
    },
    get research() {
      return bind('research');
    },
    get provider() {
      return bind('provider');
    },
    get trends() {
      return bind('trends');
    },
    get monitoring() {
      return bind('monitoring');
    },
    get agents() {
      return bind('agents');
    },
  };
}
