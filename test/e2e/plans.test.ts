import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '@vrs/kit';
import { apiClient } from '@vrs/testing/api-client';
import { startGatewayProcess, type RunningProcess } from '@vrs/testing/processes';

const gatewayUrl = inject('gatewayUrl');
const stackEnv = inject('stackEnv');
const logDir = inject('logDir');
const run = promisify(execFile);

/** The operator's script, run as an operator would against this stack. */
function setPlan(...args: string[]) {
  return run(process.execPath, ['--import', 'tsx', join(repoRoot, 'scripts/billing-set-plan.ts'), ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...stackEnv },
  });
}

async function accountOf(call: ReturnType<typeof apiClient>) {
  const { body } = await call('GET', '/v1/billing');
  return body.accountId as string;
}

describe('plans and subscriptions', () => {
  it('serve the catalogue to any credential, with this deployment’s rate limits', async () => {
    const response = await apiClient(gatewayUrl, { 'x-demo-user': `plans-${Date.now()}` })('GET', '/v1/billing/plans');
    expect(response.status).toBe(200);
    expect(response.body.data.map((plan: { id: string }) => plan.id)).toEqual(['free', 'pro', 'team']);
    const [free, pro, team] = response.body.data;
    expect(free.rateLimit.requestsPerMinute).toBe(Number(stackEnv.PLAN_FREE_REQUESTS_PER_MINUTE));
    expect(pro.monthlyCredits).toBeGreaterThan(free.monthlyCredits);
    expect(team.monthlyCredits).toBeGreaterThan(pro.monthlyCredits);
    expect(free.price).toEqual({ monthlyAmount: 0, currency: 'usd' });

    const anonymous = await apiClient(gatewayUrl)('GET', '/v1/billing/plans');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('UNAUTHENTICATED');
  });

  it('show a new account on free, active, for one month from its opening, with its plan’s limits', async () => {
    const call = apiClient(gatewayUrl, { 'x-demo-user': `new-${Date.now()}` });
    const { status, body } = await call('GET', '/v1/billing');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      plan: 'free',
      subscription: { status: 'active', cancelAtPeriodEnd: false },
      planLimits: { rateLimit: { requestsPerMinute: Number(stackEnv.PLAN_FREE_REQUESTS_PER_MINUTE) } },
    });
    const start = new Date(body.subscription.currentPeriodStart);
    const end = new Date(body.subscription.currentPeriodEnd);
    expect(Math.abs(start.getTime() - Date.now())).toBeLessThan(60_000);
    expect((end.getUTCMonth() - start.getUTCMonth() + 12) % 12).toBe(1);
    const ledger = await call('GET', '/v1/billing/ledger');
    expect(ledger.body.data).toMatchObject([{ kind: 'grant', amount: body.credits.granted }]);
  });

  // Four runs of the script, each starting tsx: slow on a loaded machine.
  it('change with the operator script: an upgrade tops the balance up at once; a cancel keeps the plan to the period end', {
    timeout: 120_000,
  }, async () => {
    const call = apiClient(gatewayUrl, { 'x-demo-user': `upgrade-${Date.now()}` });
    const accountId = await accountOf(call);
    const { body: catalogue } = await call('GET', '/v1/billing/plans');
    const pro = catalogue.data[1];

    const upgraded = await setPlan('--account', accountId, '--plan', 'pro');
    expect(upgraded.stdout).toContain(`account ${accountId}: plan pro, active`);
    const after = await call('GET', '/v1/billing');
    expect(after.body).toMatchObject({
      plan: 'pro',
      planLimits: { monthlyCredits: pro.monthlyCredits },
      credits: { balance: pro.monthlyCredits },
    });
    const { body: ledger } = await call('GET', '/v1/billing/ledger');
    expect(ledger.data[0]).toMatchObject({ kind: 'grant', amount: pro.monthlyCredits - 1000 });

    await setPlan('--account', accountId, '--plan', 'pro', '--status', 'canceled');
    const canceled = await call('GET', '/v1/billing');
    expect(canceled.body).toMatchObject({
      plan: 'pro',
      subscription: { status: 'cancelled', cancelAtPeriodEnd: true, currentPeriodEnd: after.body.subscription.currentPeriodEnd },
    });

    await expect(setPlan('--account', accountId, '--plan', 'gold')).rejects.toMatchObject({ code: 64 });
    await expect(setPlan('--account', 'acct_nobody', '--plan', 'pro')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('account acct_nobody not found'),
    });
  });
});

describe('per-account rate limits follow the plan', () => {
  // A 10 s window and limits per minute: the gateway scales them to 3 and 6 requests per window.
  const windowMs = 10_000;
  const perWindow = { free: 3, pro: 6 };
  let gateway: RunningProcess;

  beforeAll(async () => {
    gateway = await startGatewayProcess(
      'gateway-plans',
      {
        ...stackEnv,
        PLAN_FREE_REQUESTS_PER_MINUTE: String(perWindow.free * 6),
        PLAN_PRO_REQUESTS_PER_MINUTE: String(perWindow.pro * 6),
        RATE_LIMIT_WINDOW_MS: String(windowMs),
      },
      logDir,
    );
  });
  afterAll(() => gateway?.stop());

  it('gives a pro account more requests per window than a free one', async () => {
    const users = { free: `rate-free-${Date.now()}`, pro: `rate-pro-${Date.now()}` };
    // Open both accounts and upgrade one through the stack's own gateway and the operator script.
    const freeAccount = await accountOf(apiClient(gatewayUrl, { 'x-demo-user': users.free }));
    const proAccount = await accountOf(apiClient(gatewayUrl, { 'x-demo-user': users.pro }));
    expect(freeAccount).not.toBe(proAccount);
    await setPlan('--account', proAccount, '--plan', 'pro');
    // Counters are shared by every gateway (NATS KV) in windows aligned to the clock: start at the
    // beginning of a fresh one, so those requests do not count and all of these fall in one window.
    await new Promise((resolve) => setTimeout(resolve, windowMs - (Date.now() % windowMs) + 50));

    const free = apiClient(gateway.url, { 'x-demo-user': users.free });
    const pro = apiClient(gateway.url, { 'x-demo-user': users.pro });
    const window = Math.floor(Date.now() / windowMs);
    const statuses = { free: [] as number[], pro: [] as number[] };
    let limitHeaders = { free: '', pro: '' };
    for (let i = 0; i < perWindow.pro + 2; i++) {
      const [a, b] = await Promise.all([free('GET', '/v1/projects'), pro('GET', '/v1/projects')]);
      statuses.free.push(a.status);
      statuses.pro.push(b.status);
      limitHeaders = { free: a.headers.get('ratelimit-limit') ?? '', pro: b.headers.get('ratelimit-limit') ?? '' };
    }
    // All in one window, or the counts below would not mean anything.
    expect(Math.floor(Date.now() / windowMs)).toBe(window);
    expect(statuses.free.filter((status) => status === 200)).toHaveLength(perWindow.free);
    expect(statuses.free.filter((status) => status === 429)).toHaveLength(perWindow.pro + 2 - perWindow.free);
    expect(statuses.pro.filter((status) => status === 200)).toHaveLength(perWindow.pro);
    expect(statuses.pro.filter((status) => status === 429)).toHaveLength(2);
    expect(limitHeaders).toEqual({ free: String(perWindow.free), pro: String(perWindow.pro) });
  });
});
