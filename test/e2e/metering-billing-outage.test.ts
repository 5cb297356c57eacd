import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deleteNamespace } from '@vrs/bus';
import { apiClient, createApiKey, eventually, type ApiCall } from '@vrs/testing/api-client';
import { uniqueNamespace } from '@vrs/testing/nats';
import { startGatewayProcess, startProcess, type RunningProcess } from '@vrs/testing/processes';

const stackEnv = inject('stackEnv');
const logDir = inject('logDir');

/**
 * A billing and a gateway of their own (their own data dir and namespace; the shared research
 * serves the metered work), because this file kills billing with SIGKILL mid-load: issue 37, money
 * item 3 (ADR 0083). Short reservation TTL, so what a killed call held comes back within the test.
 */
describe('billing killed with -9 under metered load', () => {
  let env: Record<string, string>;
  let dataDir: string;
  let billing: RunningProcess;
  let gateway: RunningProcess;
  const started: RunningProcess[] = [];

  const startBilling = (name: string, port: string) =>
    startProcess({
      name,
      entry: 'services/billing/src/main.ts',
      env: { ...env, SERVICE_PORT: port },
      logDir,
      readyMessage: 'service listening',
    });

  beforeAll(async () => {
    dataDir = await mkdtemp(join(logDir, 'billing-outage-'));
    env = {
      ...stackEnv,
      NATS_NAMESPACE: uniqueNamespace('bout'),
      DATA_DIR: dataDir,
      BILLING_RESERVATION_TTL_MS: '3000',
      BILLING_SWEEP_INTERVAL_MS: '200',
      // Credentials stay known through the outage, so requests get as far as metering.
      AUTH_CACHE_TTL_MS: '600000',
    };
    billing = await startBilling('billing-outage', '0');
    started.push(billing);
    env.BILLING_SERVICE_URL = billing.url;
    gateway = await startGatewayProcess('gateway-billing-outage', env, logDir);
    started.push(gateway);
  });

  afterAll(async () => {
    await Promise.all(started.map((running) => running.stop()));
    await deleteNamespace(env.NATS_URL!, env.NATS_NAMESPACE!).catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('every X-Credits-Charged of a 2xx is in the ledger afterwards, nothing stays reserved, and no request is a 500', {
    timeout: 180_000,
  }, async () => {
    const { key } = await createApiKey(env, { credits: 100_000 });
    const api: ApiCall = apiClient(gateway.url, { authorization: `Bearer ${key}` });
    const project = await api('POST', '/v1/projects', { json: { name: 'billing outage' } });
    expect(project.status, project.text).toBe(200);
    let charged = Number(project.headers.get('x-credits-charged'));
    const statuses: Record<number, number> = {};
    let load = true;
    let servedAfterRestart = 0;
    let restarted = false;
    const consumer = async (n: number) => {
      for (let i = 0; load; i++) {
        const response =
          i % 3 === 0
            ? await api('POST', `/v1/projects/${project.body.id}/evidence`, { json: { items: [{ text: `outage item ${n}-${i}` }] } })
            : await api('GET', `/v1/projects/${project.body.id}/search?q=outage`);
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        if (response.status >= 200 && response.status < 300) {
          charged += Number(response.headers.get('x-credits-charged'));
          if (restarted) servedAfterRestart++;
        } else if (response.status === 503) {
          // Said so: nothing charged. A moment's pause, so the outage's quick refusals do not flood the machine.
          expect(response.headers.get('x-credits-charged') ?? '0').toBe('0');
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    };
    const consumers = Array.from({ length: 8 }, (_, n) => consumer(n));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    billing.child.kill('SIGKILL');
    await new Promise((resolve) => billing.child.once('exit', resolve));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    billing = await startBilling('billing-outage-restarted', new URL(billing.url).port);
    started.push(billing);
    restarted = true;
    await eventually(async () => (servedAfterRestart >= 20 ? true : undefined), {
      timeoutMs: 60_000,
      what: 'requests served after the restart',
    });
    load = false;
    await Promise.all(consumers);

    expect(statuses[500] ?? 0).toBe(0);
    expect(statuses[200]).toBeGreaterThan(0);
    // Once the holds of killed calls expired and every cancel was taken, billing charged exactly what the clients were told.
    const books = await eventually(
      async () => {
        const { credits } = (await api('GET', '/v1/billing')).body;
        return credits.reserved === 0 && credits.spent === charged ? credits : undefined;
      },
      { timeoutMs: 30_000, what: `nothing reserved and ${charged} spent` },
    ).catch(async () => (await api('GET', '/v1/billing')).body.credits);
    expect(books).toMatchObject({ reserved: 0, spent: charged, balance: 100_000 - charged });
    let ledgerCharges = 0;
    let cursor: string | undefined;
    for (;;) {
      const page = await api('GET', `/v1/billing/ledger?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      for (const entry of page.body.data as { kind: string; amount: number }[]) if (entry.kind !== 'grant') ledgerCharges -= entry.amount;
      if (!page.body.hasMore) break;
      cursor = page.body.nextCursor;
    }
    expect(ledgerCharges).toBe(charged);
    console.log(`billing outage: ${JSON.stringify(statuses)}, ${charged} credits charged`);
  });
});
