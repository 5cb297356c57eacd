import { execFile } from 'node:child_process';
import { mkdtemp, open, rm, statfs } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deleteNamespace } from '@vrs/bus';
import { apiClient, eventually, type ApiCall, type ApiResponse } from '@vrs/testing/api-client';
import { uniqueNamespace } from '@vrs/testing/nats';
import { startGatewayProcess, startServiceProcess, type RunningProcess } from '@vrs/testing/processes';

const run = promisify(execFile);
const stackEnv = inject('stackEnv');
const logDir = inject('logDir');

/** A 32 MB tmpfs for research's DATA_DIR, or why there is none (not root, no mount). */
const dataDir = await mkdtemp(join(logDir, 'full-disk-'));
const noTmpfs = await run('mount', ['-t', 'tmpfs', '-o', 'size=32m', 'tmpfs', dataDir]).then(
  () => undefined,
  (error: Error) => (process.getuid?.() !== 0 ? 'not root' : `mount -t tmpfs failed: ${error.message.trim()}`),
);
if (noTmpfs) console.warn(`full-disk test skipped: ${noTmpfs}`);

/** Appends to `file` until the disk has no room left. */
async function fillDisk(file: string): Promise<void> {
  const handle = await open(file, 'a');
  try {
    const { bavail, bsize } = await statfs(dirname(file));
    await handle.write(Buffer.alloc(Math.max(0, Number(bavail) * Number(bsize) - 1024 * 1024))).catch(() => undefined);
    const chunk = Buffer.alloc(4096);
    for (;;) await handle.write(chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    await handle.close();
  }
}

/**
 * Research (the service that stores evidence) with its DATA_DIR on a small tmpfs, behind a gateway of
 * its own, on a namespace of its own; billing and the provider are the shared stack's.
 */
describe.skipIf(noTmpfs !== undefined)('a full disk (issue 37, item 8)', () => {
  const started: RunningProcess[] = [];
  const filler = join(dataDir, 'filler');
  let env: Record<string, string>;
  let api: ApiCall;
  const seen: ApiResponse[] = [];
  const call: ApiCall = async (...args) => {
    const response = await api(...args);
    seen.push(response);
    return response;
  };

  beforeAll(async () => {
    env = { ...stackEnv, NATS_NAMESPACE: uniqueNamespace('fulldisk'), DATA_DIR: dataDir, LLM_BASE_URL: '' };
    const research = await startServiceProcess('research', env, logDir);
    started.push(research);
    const gateway = await startGatewayProcess('gateway-full-disk', { ...env, RESEARCH_SERVICE_URL: research.url }, logDir);
    started.push(gateway);
    api = apiClient(gateway.url, { 'x-demo-user': `full-disk-${Date.now()}` });
  });

  afterAll(async () => {
    await Promise.all(started.map((running) => running.stop()));
    await deleteNamespace(env.NATS_URL!, env.NATS_NAMESPACE!).catch(() => undefined);
    await run('umount', [dataDir]).catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  });

  const batch = (from: number) => ({
    items: Array.from({ length: 100 }, (_, i) => ({
      text: `Evidence ${from + i}: ${'a transcript line '.repeat(500)}`,
      sourceKey: `k${from + i}`,
    })),
  });

  it('answers writes 507 INSUFFICIENT_STORAGE in the envelope, reads 200, and writes again once space is freed', {
    timeout: 240_000,
  }, async () => {
    const projectId = (await call('POST', '/v1/projects', { json: { name: 'Full disk' } })).body.id;
    expect(
      (await call('POST', `/v1/projects/${projectId}/evidence`, { json: { items: [{ text: 'before the disk filled' }] } })).status,
    ).toBe(200);

    // Fill the disk to the last block, then write until a write finds no room.
    await fillDisk(filler);
    let refused: ApiResponse | undefined;
    for (let i = 0; i < 50 && !refused; i++) {
      const response = await call('POST', `/v1/projects/${projectId}/evidence`, { json: batch(i * 100) });
      if (response.status !== 200) refused = response;
    }
    expect(refused, 'a write was refused once the disk filled').toBeDefined();
    expect(refused!.status, refused!.text).toBe(507);
    expect(refused!.body.error).toMatchObject({ code: 'INSUFFICIENT_STORAGE', requestId: expect.any(String) });
    // Every other write meanwhile too, a new project as well as evidence.
    const again = await call('POST', `/v1/projects/${projectId}/evidence`, { json: batch(90_000) });
    expect(again.status, again.text).toBe(507);
    expect((await call('POST', '/v1/projects', { json: { name: 'No room' } })).status).toBe(507);

    // Reads that need no write still answer.
    const project = await call('GET', `/v1/projects/${projectId}`);
    expect(project.status, project.text).toBe(200);
    const listed = await call('GET', `/v1/projects/${projectId}/evidence?limit=5`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data.length).toBeGreaterThan(0);
    // A search of the project's evidence (metered: billing, elsewhere, charges it) reads too.
    const searched = await call('GET', `/v1/projects/${projectId}/search?q=disk`);
    expect(searched.status, searched.text).toBe(200);
    expect(searched.body.results.map((result: { text: string }) => result.text)).toContain('before the disk filled');

    // Room again: writes succeed without a restart, and what they stored reads back.
    await rm(filler);
    const added = await eventually(
      async () => {
        const response = await call('POST', `/v1/projects/${projectId}/evidence`, {
          json: { items: [{ text: 'after the disk was freed', sourceKey: 'after' }] },
        });
        return response.status === 200 ? response : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 500, what: 'a write to succeed once space is freed' },
    );
    const id = added.body.items[0].id;
    expect((await call('GET', `/v1/projects/${projectId}/evidence/${id}`)).body.text).toBe('after the disk was freed');
    expect(seen.filter((response) => response.status >= 500 && response.status !== 507).map((response) => response.text)).toEqual([]);
  });
});
