import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventBus } from '@vrs/bus';
import { appErrorDataOf, createLogger, type AppErrorData } from '@vrs/kit';
import { openEmbeddedSearch, type SearchIndex } from '@vrs/search';
import { openStore, type Store } from '@vrs/store';
import { openTestBus } from '@vrs/testing/test-bus';
import type { TRPCError } from '@trpc/server';
import { createResearchModule, type ResearchModuleOptions } from '../module';
import type { BillingClient } from '../billing-client';
import type { ProviderClient } from '../provider-client';

export { eventually } from '@vrs/testing/api-client';

/** Stands in for the provider where a test never imports: any call fails loudly. */
const noProvider = new Proxy(
  {},
  {
    get: (_target, name) => {
      throw new Error(`this research test has no provider (it called provider.${String(name)})`);
    },
  },
) as ProviderClient;

/** Stands in for billing where a test's jobs hold no credits: any call fails loudly. */
export const noBilling = new Proxy(
  {},
  {
    get: (_target, name) => {
      throw new Error(`this research test has no billing (it called billing.${String(name)})`);
    },
  },
) as BillingClient;

/** One research service instance, called the way the gateway calls it (full procedure pipeline). */
export async function startResearch(store: Store, bus: EventBus, search: SearchIndex, options: Partial<ResearchModuleOptions> = {}) {
  const module = await createResearchModule({
    store,
    bus,
    search,
    logger: createLogger('research-test'),
    provider: noProvider,
    billing: noBilling,
    llm: null,
    ...options,
  });
  await module.start();
  return { module, search, api: module.router.createCaller({ requestId: 't', caller: 'test' }) };
}
export type ResearchInstance = Awaited<ReturnType<typeof startResearch>>;

/**
 * An embedded store in a fresh temp dir, a bus (JetStream on the machine's nats-server, in a
 * namespace of this harness's own, unless given), and one started instance over them. Each instance
 * has a search index of its own (as replicas on separate machines do), unless it is given the
 * folder of another's (a restart). `close` stops every instance, then closes the bus (deleting its
 * namespace), the search indexes and the store.
 */
export async function createHarness(givenBus?: EventBus) {
  const bus = givenBus ?? (await openTestBus('research'));
  const dataDir = await mkdtemp(join(tmpdir(), 'research-test-'));
  const store = await openStore({ service: 'research', dataDir });
  const instances: ResearchInstance[] = [];
  const start = async (busOverride: EventBus = bus, searchDir = join(dataDir, `search-${instances.length}`)) => {
    const instance = { ...(await startResearch(store, busOverride, openEmbeddedSearch(searchDir))), searchDir };
    instances.push(instance);
    return instance;
  };
  const first = await start();
  return {
    store,
    bus,
    ...first,
    /** Another replica over the same store (and, unless given another, the same bus). */
    start,
    async close() {
      for (const instance of instances) await instance.module.stop();
      await bus.close();
      for (const instance of instances) await instance.search.close();
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
export type Harness = Awaited<ReturnType<typeof createHarness>>;

/** The error code (and details) a call failed with, as the gateway will see it. Fails if it succeeded. */
export async function failureOf(call: Promise<unknown>): Promise<AppErrorData> {
  try {
    await call;
  } catch (error) {
    return appErrorDataOf(error as TRPCError);
  }
  throw new Error('expected the call to fail, but it succeeded');
}

let accounts = 0;
/** A fresh account id per call, so tests never see each other's projects. */
export function newAccountId(): string {
  return `acct_${process.pid}_${++accounts}`;
}
