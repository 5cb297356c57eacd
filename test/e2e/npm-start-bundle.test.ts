import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { deleteNamespace } from '@vrs/bus';
import { apiClient, eventually } from '@vrs/testing/api-client';
import { startProcess } from '@vrs/testing/processes';
import { makeTempDir } from '@vrs/testing/temp-dir';

const promiseHookProbe = fileURLToPath(new URL('./support/promise-hook-probe.mjs', import.meta.url));

// Every other test runs the TypeScript through tsx; this one runs what `npm start` and the image run:
// the bundles of `npm run build` (ADR 0043), so a file the bundle cannot find fails here.
describe('npm start (the built bundle)', () => {
  it("builds (or finds dist/ in turbo's cache), starts the gateway bundle with its services in-process, and answers a search through the search worker", async () => {
    const natsUrl = inject('stackEnv').NATS_URL!;
    const namespace = `e2e_start_${randomBytes(3).toString('hex')}`;
    const dataDir = makeTempDir('vrs-start-');
    const probeFile = join(dataDir, 'promise-hooks');
    const gateway = await startProcess({
      name: 'npm-start',
      entry: 'scripts/start.mjs',
      env: {
        PORT: '0',
        DATA_DIR: dataDir,
        NATS_URL: natsUrl,
        NATS_NAMESPACE: namespace,
        LOG_LEVEL: 'warn',
        NODE_OPTIONS: `--import=${promiseHookProbe}`,
        PROMISE_HOOK_PROBE_FILE: probeFile,
      },
      logDir: inject('logDir'),
      readyMessage: 'gateway listening',
    });
    try {
      expect(gateway.output()).toMatch(/built \d+ entry points into dist\/|cache hit/);
      const anonymous = apiClient(gateway.url);
      expect((await anonymous('GET', '/v1/health')).status).toBe(200);
      // The reference page serves swagger-ui's files from node_modules (an external of the bundle).
      expect((await anonymous('GET', '/v1/docs/assets/swagger-ui.css')).status).toBe(200);

      const demo = apiClient(gateway.url, { 'x-demo-user': 'npm-start' });
      const project = await demo('POST', '/v1/projects', { json: { name: 'bundle' } });
      expect(project.status).toBe(200);
      const added = await demo('POST', `/v1/projects/${project.body.id}/evidence`, {
        json: { items: [{ text: 'Bundled gateways index evidence on their search worker.', sourceKey: 'note:bundle' }] },
      });
      expect(added.status).toBe(200);
      const key = await demo('POST', '/v1/api-keys', { json: { name: 'bundle', scopes: ['data:read', 'account:access'] } });
      expect(key.status).toBe(200);

      const consumer = apiClient(gateway.url, { authorization: `Bearer ${key.body.key}` });
      const search = await eventually(
        async () => {
          const response = await consumer('GET', `/v1/projects/${project.body.id}/search?q=worker`);
          return response.status === 200 && response.body.results.length > 0 ? response : undefined;
        },
        { what: 'the evidence to be found through the bundle' },
      );
      expect(search.body.results[0]).toMatchObject({ sourceKey: 'note:bundle' });
      expect(Number(search.headers.get('x-credits-charged'))).toBeGreaterThan(0);

      // Having served requests, run a consumer and written in transactions, the process has no
      // async hooks on: its promises carry no async ids (ADR 0048). The probe sees them when they are.
      const probeReading = () => readFile(`${probeFile}.${gateway.child.pid}`, 'utf8').catch(() => undefined);
      await eventually(async () => ((await probeReading()) !== undefined ? true : undefined), { what: 'the probe to report' });
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect(await probeReading()).toBe('0');
      const withStorage = spawnSync(
        process.execPath,
        ['-e', "new (require('node:async_hooks').AsyncLocalStorage)().run(1, () => {}); setTimeout(() => {}, 300);"],
        { env: { ...process.env, NODE_OPTIONS: `--import=${promiseHookProbe}`, PROMISE_HOOK_PROBE_FILE: probeFile } },
      );
      expect(await readFile(`${probeFile}.${withStorage.pid}`, 'utf8')).not.toBe('0');
    } finally {
      await gateway.stop();
      await deleteNamespace(natsUrl, namespace).catch(() => undefined);
    }
    // It builds the bundles and starts every service before its first answer: slower than a test of a
    // running stack, most of all beside the rest of the suite on two cores.
  });
});
