import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCallerFactory, rootLogger } from '@vrs/kit';
import { openStore } from '@vrs/store';
import { openTestBus } from '@vrs/testing/test-bus';
import { createBillingModule } from '../module';

export const startingCredits = 50;
export const reservationTtlMs = 60_000;

/**
 * A started billing module on an embedded store in its own temp dir, and a caller of its router.
 * `clock` replaces the module's time (reservation expiry).
 */
export async function startBilling(options: { clock?: () => number } = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'vrs-billing-'));
  const store = await openStore({ service: 'billing', dataDir });
  const bus = await openTestBus('billing');
  const module = await createBillingModule({
    store,
    bus,
    logger: rootLogger.child({ component: 'billing-test' }, { level: 'silent' }),
    config: { startingCredits, reservationTtlMs, sweepIntervalMs: 60_000, passwordScryptLogN: 12 },
    ...(options.clock ? { clock: options.clock } : {}),
  });
  await module.start();
  const call = createCallerFactory(module.router)({ requestId: 'req_test', caller: 'test' });
  let closed = false;
  return {
    call,
    store,
    dataDir,
    /** Stops the module and flushes the store; the data dir stays until `remove`. */
    async close() {
      if (closed) return;
      closed = true;
      await module.stop();
      await store.close();
      await bus.close();
    },
    async remove() {
      await this.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type BillingHarness = Awaited<ReturnType<typeof startBilling>>;

/** Every ledger entry of an account, newest first, read through `ledger.list` page by page. */
export async function allLedgerEntries(call: BillingHarness['call'], accountId: string) {
  const entries = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await call.ledger.list({ accountId, limit: 100, cursor });
    entries.push(...page.data);
    if (page.nextCursor === null) return entries;
    cursor = page.nextCursor;
  }
}

export function sumOf(entries: { amount: number }[]): number {
  return entries.reduce((total, entry) => total + entry.amount, 0);
}
