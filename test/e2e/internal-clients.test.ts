import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createTRPCClient, httpBatchLink, httpLink, TRPCClientError, type TRPCClient, type TRPCLink } from '@trpc/client';
import { newInternalSecret, sha256Hex } from '@vrs/kit';
import type { AgentsRouter } from '@vrs/agents';
import type { BillingRouter } from '@vrs/billing';
import type { MonitoringRouter } from '@vrs/monitoring';
import type { ProviderRouter } from '@vrs/provider';
import type { ResearchRouter } from '@vrs/research';
import type { TrendsRouter } from '@vrs/trends';
import { eventually } from '@vrs/testing/api-client';

/*
 * What an internal team does (docs/internal-clients.md): a stock @trpc/client, `httpBatchLink` or
 * `httpLink`, against each service process of the stack, with a named credential of its own that
 * this test adds to the stack's INTERNAL_CLIENTS_FILE while the services run.
 */
type Service = 'billing' | 'research' | 'provider' | 'trends' | 'monitoring' | 'agents';
const env = inject('stackEnv');
const urlOf = (service: Service) => env[`${service.toUpperCase()}_SERVICE_URL`]!;
const run = Date.now().toString(36);
const writer = { name: `e2e-writer-${run}`, secret: newInternalSecret() };
const reader = { name: `e2e-reader-${run}`, secret: newInternalSecret() };
const accountId = `acc_internal_${run}`;
const missingUuid = '00000000-0000-4000-8000-000000000000';

interface RouterOf {
  billing: BillingRouter;
  research: ResearchRouter;
  provider: ProviderRouter;
  trends: TrendsRouter;
  monitoring: MonitoringRouter;
  agents: AgentsRouter;
}

/** A stock client of `service` for `secret`; `fetched` collects the URL of every HTTP request it makes. */
function stockClient<S extends Service>(
  service: S,
  secret: string,
  link: 'batch' | 'single',
  fetched: string[] = [],
): TRPCClient<RouterOf[S]> {
  const options = {
    url: `${urlOf(service)}/trpc`,
    headers: { 'x-internal-token': secret },
    fetch: (...args: Parameters<typeof fetch>) => {
      fetched.push(String(args[0]));
      return fetch(...args);
    },
  };
  // Every service's router is made by the same tRPC instance (no transformer), so one link type fits them all.
  const stock = link === 'batch' ? httpBatchLink<BillingRouter>(options) : httpLink<BillingRouter>(options);
  return createTRPCClient<RouterOf[S]>({ links: [stock as unknown as TRPCLink<RouterOf[S]>] });
}

/** The TRPCClientError `call` failed with, its `data` holding tRPC's code and our appCode. */
async function failure(call: Promise<unknown>): Promise<{ code: string; httpStatus: number; appCode: string }> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TRPCClientError);
  return (error as { data: { code: string; httpStatus: number; appCode: string } }).data;
}

/** The service's access log line of a call by `client` whose path names `procedure`. */
async function accessLine(service: Service, client: string, procedure: string): Promise<Record<string, unknown>> {
  return eventually(
    async () =>
      (await readFile(join(inject('logDir'), `${service}.log`), 'utf8'))
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((line) => line.msg === 'internal client call' && line.client === client && String(line.path).includes(procedure)),
    { what: `${service}'s access line for ${client} calling ${procedure}` },
  );
}

/** The same checks on every service: refused without a known secret, and a read-only client refused a mutation. */
async function expectRefusals(service: Service, mutate: (secret: string, link: 'batch' | 'single') => Promise<unknown>) {
  for (const link of ['batch', 'single'] as const) {
    expect(await failure(mutate(reader.secret, link)), `${service} ${link}`).toMatchObject({
      code: 'FORBIDDEN',
      httpStatus: 403,
      appCode: 'INSUFFICIENT_SCOPE',
    });
    expect(await failure(mutate(newInternalSecret(), link)), `${service} ${link}`).toMatchObject({
      code: 'UNAUTHORIZED',
      httpStatus: 401,
      appCode: 'UNAUTHENTICATED',
    });
  }
}

const services: Service[] = ['billing', 'research', 'provider', 'trends', 'monitoring', 'agents'];

beforeAll(async () => {
  const entry = (client: { name: string; secret: string }, allow: string[], readOnly: boolean) => ({
    name: client.name,
    sha256: sha256Hex(client.secret),
    allow,
    readOnly,
  });
  // The writer may call everything but billing's accounts and provider's channels: what it is refused shows the allow list at work.
  const writerAllows = [
    'billing.health',
    'billing.plans.*',
    'billing.status.*',
    'research.*',
    'provider.health',
    'provider.videos.*',
    'trends.*',
    'monitoring.*',
    'agents.*',
  ];
  await writeFile(env.INTERNAL_CLIENTS_FILE!, JSON.stringify([entry(writer, writerAllows, false), entry(reader, ['*'], true)]));
  // The services look at the file every two seconds: no restart.
  for (const service of services) {
    await eventually(
      async () =>
        (await fetch(`${urlOf(service)}/trpc/health`, { headers: { 'x-internal-token': reader.secret } })).ok ? true : undefined,
      { timeoutMs: 60_000, what: `${service} to take the new credentials` },
    );
  }
});

describe('a stock @trpc/client with a named internal credential', () => {
  it('billing: batched queries in one request, our appCode in a failure, the allow list and read-only enforced, the client named in the log', async () => {
    const fetched: string[] = [];
    const batched = stockClient('billing', writer.secret, 'batch', fetched);
    const [plans, status] = await Promise.all([batched.plans.list.query(), failure(batched.status.get.query({ accountId }))]);
    expect(fetched).toHaveLength(1);
    expect(fetched[0]).toContain('plans.list,status.get?batch=1');
    expect(plans.data.length).toBeGreaterThan(0);
    expect(status).toMatchObject({ code: 'NOT_FOUND', httpStatus: 404, appCode: 'ACCOUNT_NOT_FOUND' });
    expect((await stockClient('billing', writer.secret, 'single').plans.list.query()).data).toEqual(plans.data);

    // Outside the writer's allow list.
    expect(await failure(stockClient('billing', writer.secret, 'single').accounts.get.query({ accountId }))).toMatchObject({
      code: 'FORBIDDEN',
      appCode: 'INSUFFICIENT_SCOPE',
    });
    await expectRefusals('billing', (secret, link) => stockClient('billing', secret, link).accounts.delete.mutate({ accountId } as never));
    expect(await accessLine('billing', writer.name, 'plans.list,status.get')).toMatchObject({ service: 'billing', status: 207 });
    expect(await accessLine('billing', reader.name, 'accounts.delete')).toMatchObject({ status: 403 });
  });

  it('research: batched and single calls, a missing project as PROJECT_NOT_FOUND, a mutation refused to the read-only client', async () => {
    const fetched: string[] = [];
    const batched = stockClient('research', writer.secret, 'batch', fetched);
    const [list, missing] = await Promise.all([
      batched.projects.list.query({ accountId }),
      failure(batched.projects.get.query({ accountId, projectId: 'prj_missing' })),
    ]);
    expect(fetched).toEqual([expect.stringContaining('projects.list,projects.get?batch=1')]);
    expect(list.data).toEqual([]);
    expect(missing).toMatchObject({ code: 'NOT_FOUND', appCode: 'PROJECT_NOT_FOUND' });

    const single = stockClient('research', writer.secret, 'single');
    const created = await single.projects.create.mutate({ accountId, name: `internal ${run}` });
    expect((await single.projects.get.query({ accountId, projectId: created.id })).name).toBe(`internal ${run}`);
    await expectRefusals('research', (secret, link) =>
      stockClient('research', secret, link).projects.create.mutate({ accountId, name: 'refused' }),
    );
    expect(await accessLine('research', writer.name, 'projects.create')).toMatchObject({
      service: 'research',
      method: 'POST',
      status: 200,
    });
  });

  it('provider: batched queries, a bad input as VALIDATION_FAILED, a router outside the allow list refused', async () => {
    const fetched: string[] = [];
    const batched = stockClient('provider', writer.secret, 'batch', fetched);
    const [health, invalid] = await Promise.all([batched.health.query(), failure(batched.videos.get.query({ videoId: '   ' }))]);
    expect(fetched).toEqual([expect.stringContaining('health,videos.get?batch=1')]);
    expect(health).toHaveProperty('ok');
    expect(invalid).toMatchObject({ code: 'BAD_REQUEST', httpStatus: 400, appCode: 'VALIDATION_FAILED' });

    // The provider has no mutations: the allow list is what limits the writer here.
    for (const link of ['batch', 'single'] as const) {
      expect(await failure(stockClient('provider', writer.secret, link).channels.get.query({ channel: '@x' } as never))).toMatchObject({
        code: 'FORBIDDEN',
        appCode: 'INSUFFICIENT_SCOPE',
      });
    }
    expect(await failure(stockClient('provider', newInternalSecret(), 'batch').health.query())).toMatchObject({
      code: 'UNAUTHORIZED',
      appCode: 'UNAUTHENTICATED',
    });
    expect(await accessLine('provider', writer.name, 'channels.get')).toMatchObject({ status: 403 });
  });

  it('trends: batched queries, a missing plan as OPERATION_NOT_FOUND, a mutation refused to the read-only client', async () => {
    const fetched: string[] = [];
    const batched = stockClient('trends', writer.secret, 'batch', fetched);
    const [plans, missing] = await Promise.all([
      batched.plans.list.query({ accountId }),
      failure(batched.plans.get.query({ accountId, operationId: 'op_missing' })),
    ]);
    expect(fetched).toEqual([expect.stringContaining('plans.list,plans.get?batch=1')]);
    expect(plans.data).toEqual([]);
    expect(missing).toMatchObject({ code: 'NOT_FOUND', appCode: 'OPERATION_NOT_FOUND' });
    expect((await stockClient('trends', writer.secret, 'single').plans.list.query({ accountId })).data).toEqual([]);
    await expectRefusals('trends', (secret, link) => stockClient('trends', secret, link).plans.generate.mutate({} as never));
    expect(await accessLine('trends', writer.name, 'plans.list,plans.get')).toMatchObject({ service: 'trends' });
  });

  it('monitoring: batched queries, a missing monitor as MONITOR_NOT_FOUND, a mutation refused to the read-only client', async () => {
    const fetched: string[] = [];
    const batched = stockClient('monitoring', writer.secret, 'batch', fetched);
    const [monitors, missing] = await Promise.all([
      batched.monitors.list.query({ accountId }),
      failure(batched.monitors.get.query({ accountId, monitorId: 'mon_missing' })),
    ]);
    expect(fetched).toEqual([expect.stringContaining('monitors.list,monitors.get?batch=1')]);
    expect(monitors.data).toEqual([]);
    expect(missing).toMatchObject({ code: 'NOT_FOUND', appCode: 'MONITOR_NOT_FOUND' });
    expect((await stockClient('monitoring', writer.secret, 'single').monitors.list.query({ accountId })).data).toEqual([]);
    await expectRefusals('monitoring', (secret, link) =>
      stockClient('monitoring', secret, link).monitors.delete.mutate({ accountId, monitorId: 'mon_missing' }),
    );
    expect(await accessLine('monitoring', writer.name, 'monitors.list,monitors.get')).toMatchObject({ service: 'monitoring' });
  });

  it('agents: batched queries, a missing run as AGENT_RUN_NOT_FOUND, a mutation refused to the read-only client', async () => {
    const fetched: string[] = [];
    const batched = stockClient('agents', writer.secret, 'batch', fetched);
    const [health, missing] = await Promise.all([
      batched.health.query(),
      failure(batched.runs.get.query({ accountId, sessionId: missingUuid, runId: missingUuid })),
    ]);
    expect(fetched).toEqual([expect.stringContaining('health,runs.get?batch=1')]);
    expect(health).toHaveProperty('ok');
    expect(missing).toMatchObject({ code: 'NOT_FOUND', httpStatus: 404, appCode: 'AGENT_RUN_NOT_FOUND' });
    expect(await stockClient('agents', writer.secret, 'single').health.query()).toMatchObject({ ok: health.ok });
    await expectRefusals('agents', (secret, link) => stockClient('agents', secret, link).access.allow.mutate({ accountId, allowed: true }));
    expect(await accessLine('agents', reader.name, 'access.allow')).toMatchObject({ status: 403 });
  });
});
