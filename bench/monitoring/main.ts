// bench/monitoring: BENCH_MONITORS search monitors due at once on the embedded store, checked by one
// monitoring module (provider, trends and billing modules in-process, as `npm start` hosts them)
// while the fake YouTube adds BENCH_LATENCY_MS to every request: checks per second and the time
// until all are done, beside the ideal `monitors × upstream latency / concurrency` and their ratio.
// Not a test: it prints figures. Env: BENCH_MONITORS (10000), BENCH_LATENCY_MS (20), BENCH_CONCURRENCY (16).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import { createBillingModule, type BillingRouter } from '@vrs/billing';
import { createMemoryBus } from '@vrs/bus';
import { createCallerFactory, createClock, createServiceClient, rootLogger } from '@vrs/kit';
import { createMonitoringModule } from '@vrs/monitoring';
import { createProviderModule, type ProviderRouter } from '@vrs/provider';
import { openStore, type Store } from '@vrs/store';
import { monitoringFixtureQuery } from '@vrs/testing/upstreams/youtube/author-monitoring-fixtures';
import { projectDir } from '@vrs/testing/upstreams/youtube/fixture-dirs';
import { startFakeYouTube } from '@vrs/testing/upstreams/youtube/server';
import { createTrendsModule, type TrendsRouter } from '@vrs/trends';

const monitorCount = Number(process.env.BENCH_MONITORS ?? 10_000);
const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 20);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const t0 = Date.parse('2026-03-01T09:00:00.000Z');

async function main() {
  const dataDir = await mkdtemp(join(tmpdir(), 'vrs-bench-monitoring-'));
  const fake = await startFakeYouTube({ replayDirs: [projectDir], log: () => undefined });
  const stores = await Promise.all(['billing', 'provider', 'trends', 'monitoring'].map((service) => openStore({ service, dataDir })));
  const [billingStore, providerStore, trendsStore, monitoringStore] = stores as [Store, Store, Store, Store];
  const bus = createMemoryBus();
  const logger = rootLogger.child({ component: 'bench-monitoring' }, { level: 'warn' });
  const billing = await createBillingModule({
    store: billingStore,
    bus,
    logger,
    config: { startingCredits: 10 * monitorCount, reservationTtlMs: 15 * 60_000, sweepIntervalMs: 60_000 },
  });
  const provider = await createProviderModule({
    store: providerStore,
    bus,
    logger,
    config: {
      youtube: {
        origin: fake.url,
        timeoutMs: 10_000,
        retries: 0,
        retryBaseDelayMs: 5,
        breaker: { failureThreshold: 1_000_000, halfOpenAfterMs: 60_000 },
        // Upstream requests in flight must not be the bottleneck the bench measures against.
        maxConcurrency: concurrency,
      },
    },
  });
  const providerClient = createServiceClient<ProviderRouter>({ mode: 'inprocess', router: provider.router, caller: 'monitoring' });
  const trends = await createTrendsModule({
    store: trendsStore,
    bus,
    logger,
    provider: providerClient,
    llm: null,
    config: { clockControl: false, enrichConcurrency: 30 },
  });
  const clock = createClock();
  clock.set(new Date(t0));
  const monitoring = await createMonitoringModule({
    store: monitoringStore,
    bus,
    logger,
    clock,
    config: {
      clockControl: true,
      tickMs: 0,
      leaseMs: 600_000,
      concurrency,
      backoffCapMinutes: 1_440,
      webhooks: { allowPrivate: false, maxAttempts: 6, disableAfterFailures: 20, retryBaseMs: 60_000, timeoutMs: 10_000 },
    },
    provider: providerClient,
    trends: createServiceClient<TrendsRouter>({ mode: 'inprocess', router: trends.router, caller: 'monitoring' }),
    billing: createServiceClient<BillingRouter>({ mode: 'inprocess', router: billing.router, caller: 'monitoring' }),
  });
  await Promise.all([billing.start(), provider.start(), trends.start(), monitoring.start()]);
  try {
    const call = createCallerFactory(monitoring.router)({ requestId: 'bench', caller: 'bench' });
    const { accountId } = await createCallerFactory(billing.router)({ requestId: 'bench', caller: 'bench' }).accounts.ensureDemo({
      demoUser: 'bench',
    });
    // A warm-up pass first, not measured: 2 × concurrency monitors checked at t0 + 15 min, then
    // disabled. The code a check runs is loaded and compiled by then, so the measured pass is the
    // steady state (this bench runs the source through tsx, which compiles a module on first use).
    const warmUpIds: string[] = [];
    for (let i = 0; i < 2 * concurrency; i++) {
      const { id } = await call.monitors.create({ accountId, query: { kind: 'search', q: monitoringFixtureQuery }, intervalMinutes: 15 });
      warmUpIds.push(id);
    }
    clock.set(new Date(t0 + 15 * 60_000));
    await call.scheduler.runDue();
    for (const id of warmUpIds) await call.monitors.update({ accountId, monitorId: id, enabled: false });
    // Created disabled (nothing runs), then enabled: all due together at t0 + 30 min.
    const setupStarted = performance.now();
    for (let i = 0; i < monitorCount; i++) {
      const { id } = await call.monitors.create({
        accountId,
        query: { kind: 'search', q: monitoringFixtureQuery },
        intervalMinutes: 15,
        enabled: false,
      });
      await call.monitors.update({ accountId, monitorId: id, enabled: true });
    }
    const setupMs = performance.now() - setupStarted;
    clock.set(new Date(t0 + 30 * 60_000));
    fake.reset();
    fake.setLatency(latencyMs);
    // The services run in this process (beside the fake upstream), so its own event loop is theirs.
    const eventLoop = monitorEventLoopDelay({ resolution: 10 });
    eventLoop.enable();
    const started = performance.now();
    const { checkIds } = await call.scheduler.runDue();
    const elapsedMs = performance.now() - started;
    eventLoop.disable();
    const hits = fake.hits();
    const ideal = (monitorCount * latencyMs) / concurrency;
    console.log(
      `\nbench/monitoring — ${monitorCount} search monitors due at once, embedded store, ${latencyMs} ms added to every upstream request, ${concurrency} checks in flight\n`,
    );
    console.log(
      '| monitors | checks run | upstream requests | elapsed ms | checks / s | ideal ms (monitors × latency / concurrency) | elapsed / ideal |',
    );
    console.log('|---:|---:|---:|---:|---:|---:|---:|');
    console.log(
      `| ${monitorCount} | ${checkIds.length} | ${hits.total} | ${elapsedMs.toFixed(0)} | ${((checkIds.length / elapsedMs) * 1000).toFixed(1)} | ${ideal.toFixed(0)} | ${(elapsedMs / ideal).toFixed(2)} |`,
    );
    console.log(`\n(setup: ${monitorCount} creates + enables in ${setupMs.toFixed(0)} ms, not measured above)`);
    console.log(
      `worst event-loop delay of the process hosting the services (and the fake upstream) during the checks: ${(eventLoop.max / 1e6).toFixed(1)} ms (goal ≤ 50; p99 ${(eventLoop.percentile(99) / 1e6).toFixed(1)} ms, p99.9 ${(eventLoop.percentile(99.9) / 1e6).toFixed(1)} ms)`,
    );
  } finally {
    await monitoring.stop();
    await Promise.all([trends.stop(), provider.stop(), billing.stop()]);
    await bus.close();
    await Promise.all(stores.map((store) => store.close()));
    await fake.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
