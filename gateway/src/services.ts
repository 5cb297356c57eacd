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
  return new RequestServices(services, context);
}

class RequestServices implements GatewayServices {
  #billing?: GatewayServices['billing'];
  #research?: GatewayServices['research'];
  #provider?: GatewayServices['provider'];
  #trends?: GatewayServices['trends'];
  #monitoring?: GatewayServices['monitoring'];
  #agents?: GatewayServices['agents'];

  constructor(
    private readonly services: GatewayServices,
    private readonly context: RequestContext,
  ) {}

  get billing() {
    this.#billing ??= forRequest(this.services.billing, this.context);
    return this.#billing;
  }
  get research() {
    this.#research ??= forRequest(this.services.research, this.context);
    return this.#research;
  }
  get provider() {
    this.#provider ??= forRequest(this.services.provider, this.context);
    return this.#provider;
  }
  get trends() {
    this.#trends ??= forRequest(this.services.trends, this.context);
    return this.#trends;
  }
  get monitoring() {
    this.#monitoring ??= forRequest(this.services.monitoring, this.context);
    return this.#monitoring;
  }
  get agents() {
    this.#agents ??= forRequest(this.services.agents, this.context);
    return this.#agents;
  }
}
