import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBillingModule, type BillingRouter } from '@vrs/billing';
import type { EventBus } from '@vrs/bus';
import { createCallerFactory, createClock, createServiceClient, rootLogger, type ControllableClock } from '@vrs/kit';
import { createProviderModule, type ProviderRouter } from '@vrs/provider';
import { openStore, type Store } from '@vrs/store';
import { replayYouTubeConfig, startReplay } from '@vrs/testing/youtube-replay';
import { openTestBus } from '@vrs/testing/test-bus';
import { createTrendsModule, type TrendsRouter } from '@vrs/trends';
import type { MonitoringModuleConfig } from '../monitoring-deps';
import { createMonitoringModule } from '../module';

export const harnessNow = Date.parse('2026-01-20T12:00:00.000Z');

/**
 * Monitoring beside billing, provider and trends modules, as `npm start` hosts them (in-process
 * clients), the provider reading a fake YouTube on a free port. The monitoring clock is the
 * harness's (`clock`), fixed at `harnessNow`; the scheduler loop is off, so a test runs passes
 * itself (`call.scheduler.runDue()`). `replica()` starts a second monitoring module on the same
 * store, with a clock of its own, as a second process would be.
 */
export async function startMonitoring(
  options: {
    startingCredits?: number;
    config?: Partial<Omit<MonitoringModuleConfig, 'webhooks'>> & { webhooks?: Partial<MonitoringModuleConfig['webhooks']> };
    /** The monitoring modules' own bus (the caller's, left open), e.g. on a NATS server a test stops; the others keep the harness's. */
    monitoringBus?: EventBus;
    outboxRetryDelayMs?: number;
  } = {},
) {
  const dataDir = await mkdtemp(join(tmpdir(), 'vrs-monitoring-'));
  const stores = await Promise.all(
    (['billing', 'provider', 'trends', 'monitoring'] as const).map((service) => openStore({ service, dataDir })),
  );
  const [billingStore, providerStore, trendsStore, monitoringStore] = stores as [Store, Store, Store, Store];
  const bus = await openTestBus('monitoring');
  const fake = await startReplay();
  const logger = rootLogger.child({ component: 'monitoring-test' }, { level: 'silent' });
  const billing = await createBillingModule({
    store: billingStore,
    bus,
    logger,
    config: { startingCredits: options.startingCredits ?? 1000, reservationTtlMs: 15 * 60_000, sweepIntervalMs: 60_000 },
  });
  const provider = await createProviderModule({
    store: providerStore,
    bus,
    logger,
    config: {
      youtube: replayYouTubeConfig(fake.url),
    },
  });
  const providerClient = createServiceClient<ProviderRouter>({ mode: 'inprocess', router: provider.router, caller: 'monitoring' });
  const trends = await createTrendsModule({
    store: trendsStore,
    bus,
    logger,
    provider: providerClient,
    llm: null,
    config: { clockControl: true, enrichConcurrency: 30 },
  });
  const billingClient = createServiceClient<BillingRouter>({ mode: 'inprocess', router: billing.router, caller: 'monitoring' });
  const config: MonitoringModuleConfig = {
    clockControl: true,
    tickMs: 0,
    leaseMs: 300_000,
    concurrency: 4,
    backoffCapMinutes: 1_440,
    ...options.config,
    webhooks: {
      allowPrivate: true,
      maxAttempts: 4,
      disableAfterFailures: 3,
      retryBaseMs: 60_000,
      timeoutMs: 2_000,
      ...options.config?.webhooks,
    },
  };

  async function monitoringModule(clock: ControllableClock) {
    const module = await createMonitoringModule({
      store: monitoringStore,
      bus: options.monitoringBus ?? bus,
      outboxRetryDelayMs: options.outboxRetryDelayMs,
      logger,
      clock,
      config,
      provider: providerClient,
      trends: createServiceClient<TrendsRouter>({ mode: 'inprocess', router: trends.router, caller: 'monitoring' }),
      billing: billingClient,
    });
    await module.start();
    return module;
  }

  const clock = createClock();
  clock.set(new Date(harnessNow));
  await Promise.all([billing.start(), provider.start(), trends.start()]);
  const monitoring = await monitoringModule(clock);
  const modules = [monitoring];
  const callerOf = (module: typeof monitoring) => createCallerFactory(module.router)({ requestId: 'req_test', caller: 'test' });
  const billingCall = createCallerFactory(billing.router)({ requestId: 'req_test', caller: 'test' });
  const trendsCall = createCallerFactory(trends.router)({ requestId: 'req_test', caller: 'test' });

  return {
    call: callerOf(monitoring),
    billing: billingCall,
    /** Fixes the trends service's clock (topic reports compute ages from it). */
    setTrendsClock: (iso: string) => trendsCall.clock.set({ now: iso }),
    clock,
    fake,
    store: monitoringStore,
    /** A new demo account with the starting credits. */
    account: async (name: string) => (await billingCall.accounts.ensureDemo({ demoUser: `${name}-${Math.random()}` })).accountId,
    /** Moves the harness clock to `minutes` after harnessNow. */
    at: (minutes: number) => clock.set(new Date(harnessNow + minutes * 60_000)),
    async replica() {
      const replicaClock = createClock();
      replicaClock.set(clock.now());
      const module = await monitoringModule(replicaClock);
      modules.push(module);
      return { call: callerOf(module), clock: replicaClock };
    },
    async close() {
      for (const module of modules) await module.stop();
      await Promise.all([trends.stop(), provider.stop(), billing.stop()]);
      await bus.close();
      await Promise.all(stores.map((store) => store.close()));
      await fake.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type MonitoringHarness = Awaited<ReturnType<typeof startMonitoring>>;
