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
