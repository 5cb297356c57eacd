import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deleteNamespace } from '@vrs/bus';
import { defaultNamespaceOf, repoRoot } from '@vrs/kit';
import { apiClient, createApiKey, eventually } from '@vrs/testing/api-client';
import { startProcess, type RunningProcess } from '@vrs/testing/processes';

const run = promisify(execFile);
const natsUrl = inject('stackEnv').NATS_URL!;
const internalToken = 'two-instances-internal-token';

/**
 * `npm start` as a newcomer runs it, with nothing but PORT and DATA_DIR of its own: no namespace, no
 * service URLs (blanked, so the stack's variables of this test run don't leak in).
 */
function instanceEnv(dataDir: string, port = '0'): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'test',
    PORT: port,
    DATA_DIR: dataDir,
    NATS_URL: natsUrl,
    INTERNAL_TOKEN: internalToken,
    NATS_NAMESPACE: '',
    SERVICES_MODE: '',
    BILLING_SERVICE_URL: '',
    RESEARCH_SERVICE_URL: '',
    PROVIDER_SERVICE_URL: '',
    TRENDS_SERVICE_URL: '',
    PLAN_FREE_REQUESTS_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_IP: '1000000',
  };
}

function startInstance(name: string, dataDir: string, logDir: string) {
  return startProcess({
    name,
    entry: 'scripts/start.mjs',
    env: instanceEnv(dataDir),
    logDir,
    readyMessage: 'gateway listening',
    timeoutMs: 150_000,
  });
}

/** Runs `npm start` expecting it to refuse to start; resolves with its exit code and output. */
async function refusedStart(env: NodeJS.ProcessEnv) {
  const result = await run(process.execPath, [join(repoRoot, 'scripts/start.mjs')], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
  return result;
}

/** The README's first demo: a project, evidence, and a search that finds it. */
async function readmeDemo(gatewayUrl: string, user: string) {
  const api = apiClient(gatewayUrl, { 'x-demo-user': user });
  const project = await api('POST', '/v1/projects', { json: { name: `${user}'s research` } });
  expect(project.status).toBe(200);
  const added = await api('POST', `/v1/projects/${project.body.id}/evidence`, {
    json: { items: [{ text: `Espresso grind notes of ${user}`, sourceKey: `note:${user}` }] },
  });
  expect(added.status).toBe(200);
  const found = await eventually(
    async () => {
      const search = await api('GET', `/v1/projects/${project.body.id}/search?q=espresso`);
      return search.status === 200 && search.body.results.length === 1 ? search : undefined;
    },
    { what: `${user}'s evidence to be indexed on ${gatewayUrl}`, timeoutMs: 60_000 },
  );
  expect(found.body.results[0].text).toBe(`Espresso grind notes of ${user}`);
  return project.body.id as string;
}

describe('two local instances on one nats-server', () => {
  let workDir: string;
  const dataDirs: string[] = [];
  const instances: RunningProcess[] = [];

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'vrs-two-instances-'));
    dataDirs.push(join(workDir, 'a'), join(workDir, 'b'));
    // Started together, as two terminals would.
    instances.push(...(await Promise.all(dataDirs.map((dir, n) => startInstance(`instance-${'ab'[n]}`, dir, workDir)))));
  });

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await Promise.all(dataDirs.map((dataDir) => deleteNamespace(natsUrl, defaultNamespaceOf({ dataDir })).catch(() => undefined)));
    await rm(workDir, { recursive: true, force: true });
  });

  it('keep their events apart: the demo works on both, however often it runs', async () => {
    const [a, b] = instances;
    for (let round = 0; round < 3; round++) {
      await Promise.all([readmeDemo(a!.url, `alice-${round}`), readmeDemo(b!.url, `bob-${round}`)]);
    }
    for (const instance of instances) expect(instance.output()).not.toMatch(/project this store does not have|EADDRINUSE/);
  });

  it('record their own internal endpoints, and the key script talks to the instance of its DATA_DIR', async () => {
    const [recordA, recordB] = await Promise.all(
      dataDirs.map(async (dir) => JSON.parse(await readFile(join(dir, 'runtime.json'), 'utf8'))),
    );
    expect(recordA.services.billing).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(recordA.services.billing).not.toBe(recordB.services.billing);
    expect(recordA.natsNamespace).not.toBe(recordB.natsNamespace);

    const { key } = await createApiKey({ ...instanceEnv(dataDirs[0]!) } as Record<string, string>);
    const [a, b] = instances;
    expect((await apiClient(a!.url, { authorization: `Bearer ${key}` })('GET', '/v1/projects')).status).toBe(200);
    expect((await apiClient(b!.url, { authorization: `Bearer ${key}` })('GET', '/v1/projects')).status).toBe(401);
  });

  it('reindex rebuilds a project of the instance of its DATA_DIR from the store', async () => {
    const projectId = await readmeDemo(instances[0]!.url, 'carol');
    const env = { ...process.env, ...instanceEnv(dataDirs[0]!) };
    const { stdout } = await run(process.execPath, ['--import', 'tsx', join(repoRoot, 'scripts/reindex.ts'), '--project', projectId], {
      cwd: repoRoot,
      env,
    });
    expect(stdout).toMatch(new RegExp(`^${projectId}: 1 evidence items indexed \\(index version \\d+\\)`, 'm'));
    // The other instance's store has no such project.
    const elsewhere = await run(process.execPath, ['--import', 'tsx', join(repoRoot, 'scripts/reindex.ts'), '--project', projectId], {
      cwd: repoRoot,
      env: { ...process.env, ...instanceEnv(dataDirs[1]!) },
    }).catch((error: { code: number; stdout: string }) => error);
    expect(elsewhere).toMatchObject({ code: 1, stdout: `${projectId}: no such project\n` });
  });

  // Each refused start loads the whole system first: on a loaded 2-core machine that takes a while.
  it('a port or data directory already in use is one clear line, not a stack trace', { timeout: 180_000 }, async () => {
    const takenPort = new URL(instances[0]!.url).port;
    dataDirs.push(join(workDir, 'c'));
    const portClash = await refusedStart(instanceEnv(dataDirs[2]!, takenPort));
    expect(portClash.code).toBe(1);
    expect(portClash.stderr.trim()).toBe(
      `Port ${takenPort} on 127.0.0.1 is already in use (another instance?). Set PORT to a free port, or 0 for any free port.`,
    );

    const dirClash = await refusedStart(instanceEnv(dataDirs[0]!));
    expect(dirClash.code).toBe(1);
    expect(dirClash.stderr.trim()).toMatch(/^The data directory \S+ is in use by another process \(pid \d+\)\. .*DATA_DIR\.$/);
  });
});
