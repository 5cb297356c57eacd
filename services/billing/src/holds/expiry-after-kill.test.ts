import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deleteNamespace } from '@vrs/bus';
import { createServiceClient } from '@vrs/kit';
import { eventually } from '@vrs/testing/api-client';
import { uniqueNamespace } from '@vrs/testing/nats';
import { startServiceProcess, type RunningProcess } from '@vrs/testing/processes';
import { afterAll, expect, it } from 'vitest';
import type { BillingRouter } from '../router';

const internalToken = 'billing-kill-test-token';
const namespace = uniqueNamespace('bkill');
let dataDir: string;
const started: RunningProcess[] = [];

afterAll(async () => {
  await Promise.all(started.map((process) => process.stop()));
  await deleteNamespace(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', namespace).catch(() => undefined);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function startBillingProcess(name: string) {
  const billing = await startServiceProcess(
    'billing',
    {
      DATA_DIR: dataDir,
      INTERNAL_TOKEN: internalToken,
      NATS_NAMESPACE: namespace,
      BILLING_RESERVATION_TTL_MS: '2000',
      BILLING_SWEEP_INTERVAL_MS: '100',
    },
    dataDir,
  );
  started.push(billing);
  return {
    process: billing,
    call: createServiceClient<BillingRouter>({ mode: 'http', url: billing.url, internalToken, caller: name, timeoutMs: 30_000 }),
  };
}

it('gives back the credits held by metered calls in flight when billing was killed with -9, after its restart', {
  timeout: 120_000,
}, async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'vrs-billing-kill-'));
  const first = await startBillingProcess('billing-before-kill');
  const { accountId } = await first.call.accounts.create.mutate({ initialCredits: 1000 });
  // Two metered calls that reserved and never finished, then more reserving as the process dies.
  await Promise.all([5, 7].map((amount) => first.call.credits.reserve.mutate({ accountId, amount, operation: 'getVideo' })));
  expect((await first.call.status.get.query({ accountId })).credits).toMatchObject({ balance: 988, reserved: 12 });
  const inFlight = Array.from({ length: 30 }, () => first.call.credits.reserve.mutate({ accountId, amount: 1, operation: 'getVideo' }));
  await Promise.race(inFlight);
  first.process.child.kill('SIGKILL');
  await Promise.allSettled(inFlight);
  if (first.process.child.exitCode === null && first.process.child.signalCode === null) await once(first.process.child, 'exit');

  const second = await startBillingProcess('billing-after-restart');
  const credits = await eventually(
    async () => {
      const status = (await second.call.status.get.query({ accountId })).credits;
      return status.reserved === 0 ? status : undefined;
    },
    { timeoutMs: 60_000, what: 'expired holds returned after the restart' },
  );
  expect(credits).toEqual({ balance: 1000, reserved: 0, granted: 1000, spent: 0 });
  // Holds are not ledger lines (ADR 0083): nothing was charged, so the ledger is the grant alone.
  const { data: entries } = await second.call.ledger.list.query({ accountId, limit: 100 });
  expect(entries.map((entry) => entry.kind)).toEqual(['grant']);
  expect(entries.reduce((sum, entry) => sum + entry.amount, 0)).toBe(1000);
});
