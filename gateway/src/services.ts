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
  readonly #bound: Partial<GatewayServices> = {};

  constructor(
    private readonly services: GatewayServices,
    private readonly context: RequestContext,
  ) {}

  #bind<K extends keyof GatewayServices>(name: K): GatewayServices[K] {
    const bound = this.#bound[name] ?? forRequest(this.services[name], this.context);
    this.#bound[name] = bound;
    return bound;
  }
  get billing() {
    return this.#bind('billing');
  }
  get research() {
    return this.#bind('research');
  }
  get provider() {
    return this.#bind('provider');
  }
  get trends() {
    return this.#bind('trends');
  }
  get monitoring() {
    return this.#bind('monitoring');
  }
  get agents() {
    return this.#bind('agents');
  }
}
