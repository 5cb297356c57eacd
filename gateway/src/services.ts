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

/** The clients bound to one request (`forRequest`): every call carries its id, so the services' ledger lines and logs name it. */
export function servicesFor(services: GatewayServices, context: RequestContext): GatewayServices {
  return {
    billing: forRequest(services.billing, context),
    research: forRequest(services.research, context),
    provider: forRequest(services.provider, context),
    trends: forRequest(services.trends, context),
    monitoring: forRequest(services.monitoring, context),
    agents: forRequest(services.agents, context),
  };
}
