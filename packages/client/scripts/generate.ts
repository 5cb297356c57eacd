// `npm run client:generate`: writes src/generated/api.ts from the OpenAPI document the gateway
// serves. With VRS_API_URL it reads that running API's document; otherwise it starts the gateway
// alone (one process, in-process bus, its own temporary data dir) just long enough to read it.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedTypesPath, typesFromDocument } from '../src/generate/types-from-document';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../../..');

async function servedDocument(): Promise<unknown> {
  if (process.env.VRS_API_URL) return fetchDocument(process.env.VRS_API_URL);
  const runDir = await mkdtemp(join(tmpdir(), 'vrs-client-generate-'));
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'gateway/src/main.ts')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      PORT: '0',
      HOST: '127.0.0.1',
      SERVICES_MODE: 'inprocess',
      SERVE_HOSTED_SERVICES: 'false',
      RATE_LIMIT_STORE: 'memory',
      // Nothing listens there: the gateway falls back to its in-process bus and touches no shared NATS.
      NATS_URL: 'nats://127.0.0.1:1',
      DATA_DIR: join(runDir, 'data'),
      INTERNAL_TOKEN: 'client-generate-internal-token',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
        if (url) resolve(url);
      });
      child.once('exit', (code) => reject(new Error(`the gateway exited (${code}) before it listened`)));
    });
    return await fetchDocument(url);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await rm(runDir, { recursive: true, force: true });
  }
}

async function fetchDocument(baseUrl: string): Promise<unknown> {
  const response = await fetch(new URL('/v1/openapi.json', baseUrl));
  if (!response.ok) throw new Error(`GET /v1/openapi.json answered ${response.status}`);
  return response.json();
}

const types = await typesFromDocument(await servedDocument());
await writeFile(generatedTypesPath, types);
console.log(`wrote ${generatedTypesPath}`);
