import type { AnyRouter } from '@trpc/server';
import { createServiceClient, nameServiceRouter, startServiceServer, type Logger, type ServiceModule } from '@vrs/kit';
import { openStore } from '@vrs/store';
import type { EventBus } from '@vrs/bus';
import type { ServiceName } from '@vrs/contracts';
import { billingModuleConfigOf, createBillingModule } from '@vrs/billing';
import { createResearchModule } from '@vrs/research';
import { researchImportConfigOf, researchRetentionConfigOf } from '@vrs/research/config';
import { openSearch } from '@vrs/search';
import { createProviderModule } from '@vrs/provider';
import { youtubeClientOptionsOf } from '@vrs/provider/config';
import { createLlm } from '@vrs/ai';
import { createTrendsModule } from '@vrs/trends';
import { trendsModuleConfigOf } from '@vrs/trends/config';
import { createMonitoringModule } from '@vrs/monitoring';
import { monitoringModuleConfigOf } from '@vrs/monitoring/config';
import { createAgentsModule } from '@vrs/agents';
import { agentsSettingsOf } from '@vrs/agents/config';
import type { GatewayConfig } from './config';
import type { GatewayServices } from './services';

/**
 * Hosts every service in this process (`npm start`, SERVICES_MODE=inprocess), each with its own
 * store under DATA_DIR/<service>, called through tRPC's local link. Loaded only in that mode, so a
 * gateway in front of service processes never loads the services' code (youtubei.js, sharp, the AI SDK).
 */
export async function hostServices(config: GatewayConfig, options: { bus: EventBus; logger: Logger }) {
  const { bus } = options;
  const hosted: ServiceModule[] = [];
  const closers: (() => Promise<void>)[] = [];
  /** Where each hosted service answers internal calls, as bound (free ports unless configured). */
  const internalUrls: Partial<Record<ServiceName, string>> = {};
  /** A client of `module` for `caller` (the name its calls carry in logs and metrics, as over HTTP). */
  const client = <TRouter extends AnyRouter>(module: ServiceModule<TRouter>, caller = 'gateway') =>
    createServiceClient<TRouter>({ mode: 'inprocess', router: module.router, caller });

  async function host<TRouter extends AnyRouter>(
    service: ServiceName,
    url: string,
    create: (store: Awaited<ReturnType<typeof openStore>>) => Promise<ServiceModule<TRouter>>,
  ) {
    const store = await openStore({
      service,
      mongodbUrl: config.MONGODB_URL,
      dataDir: config.DATA_DIR,
      synchronous: config.STORE_SYNCHRONOUS,
    });
    closers.push(() => store.close());
    const module = await create(store);
    nameServiceRouter(service, module.router);
    await module.start();
    hosted.push(module);
    await serveInternally(service, url, module.router);
    return module;
  }

  // Hosted services still answer internal tRPC callers (scripts/create-api-key, other teams' tools).
  // Their ports are free ones chosen now unless *_SERVICE_URL is set, so a second instance on this
  // machine never collides; tools find them in DATA_DIR/runtime.json.
  async function serveInternally(service: ServiceName, url: string, router: AnyRouter) {
    if (!config.INTERNAL_TOKEN || !config.SERVE_HOSTED_SERVICES) return;
    const setting = `${service.toUpperCase()}_SERVICE_URL`;
    const server = await startServiceServer({
      service,
      router,
      port: process.env[setting] ? Number(new URL(url).port) : 0,
      host: config.HOST,
      portSetting: setting,
      internalToken: config.INTERNAL_TOKEN,
      internalClients: { inline: config.INTERNAL_CLIENTS, file: config.INTERNAL_CLIENTS_FILE },
      logger: options.logger,
      turnBudgetMs: config.REQUEST_TURN_BUDGET_MS,
    });
    closers.push(() => server.close());
    internalUrls[service] = server.url;
  }

  const billingModule = await host('billing', config.BILLING_SERVICE_URL, (store) =>
    createBillingModule({
      store,
      bus,
      logger: options.logger.child({ service: 'billing' }),
      config: billingModuleConfigOf(config),
    }),
  );
  const providerModule = await host('provider', config.PROVIDER_SERVICE_URL, (store) =>
    createProviderModule({
      store,
      bus,
      logger: options.logger.child({ service: 'provider' }),
      config: { youtube: youtubeClientOptionsOf(config), versionsKept: config.PROVIDER_VERSIONS_KEPT },
    }),
  );
  const researchSearch = await openSearch({
    service: 'research',
    engine: config.SEARCH_ENGINE,
    dataDir: config.DATA_DIR,
    mongodbUrl: config.MONGODB_URL,
  });
  closers.push(() => researchSearch.close());
  // Research imports read through the provider, so the provider is hosted first.
  const researchModule = await host('research', config.RESEARCH_SERVICE_URL, (store) =>
    createResearchModule({
      store,
      search: researchSearch,
      bus,
      logger: options.logger.child({ service: 'research' }),
      provider: client(providerModule, 'research'),
      billing: client(billingModule, 'research'),
      llm: createLlm(config, { logger: options.logger.child({ service: 'research', component: 'llm' }) }),
      retention: researchRetentionConfigOf(config),
      imports: researchImportConfigOf(config),
    }),
  );
  const trendsModule = await host('trends', config.TRENDS_SERVICE_URL, (store) =>
    createTrendsModule({
      store,
      bus,
      logger: options.logger.child({ service: 'trends' }),
      provider: client(providerModule, 'trends'),
      llm: createLlm(config, { logger: options.logger.child({ service: 'trends', component: 'llm' }) }),
      config: trendsModuleConfigOf(config),
    }),
  );
  const agentsModule = await host('agents', config.AGENTS_SERVICE_URL, (store) =>
    createAgentsModule({
      store,
      bus,
      logger: options.logger.child({ service: 'agents' }),
      provider: client(providerModule, 'agents'),
      research: client(researchModule, 'agents'),
      billing: client(billingModule, 'agents'),
      trends: client(trendsModule, 'agents'),
      llm: createLlm(config, { logger: options.logger.child({ service: 'agents', component: 'llm' }) }),
      settings: agentsSettingsOf(config),
    }),
  );
  // Monitoring checks through the provider, trends and billing, so it is hosted last.
  const monitoringModule = await host('monitoring', config.MONITORING_SERVICE_URL, (store) =>
    createMonitoringModule({
      store,
      bus,
      logger: options.logger.child({ service: 'monitoring' }),
      provider: client(providerModule, 'monitoring'),
      trends: client(trendsModule, 'monitoring'),
      billing: client(billingModule, 'monitoring'),
      config: monitoringModuleConfigOf(config),
    }),
  );

  const services: GatewayServices = {
    billing: client(billingModule),
    research: client(researchModule),
    provider: client(providerModule),
    trends: client(trendsModule),
    monitoring: client(monitoringModule),
    agents: client(agentsModule),
  };
  return {
    services,
    internalUrls,
    async close() {
      for (const module of hosted.reverse()) await module.stop();
      for (const close of closers.reverse()) await close();
    },
  };
}
