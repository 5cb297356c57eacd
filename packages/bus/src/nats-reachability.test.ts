import { createServer } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureNatsServer, type NatsServerHandle } from '@vrs/testing/nats';
import { isNatsReachable } from './nats-reachability';

let server: NatsServerHandle;

beforeAll(async () => {
  server = await ensureNatsServer();
});

afterAll(async () => {
  await server?.stop();
});

it('finds a running server', async () => {
  expect(await isNatsReachable(server.url)).toBe(true);
});

it('answers false where nothing listens or the URL is nonsense', async () => {
  const closedPort = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

  expect(await isNatsReachable(`nats://127.0.0.1:${closedPort}`, 500)).toBe(false);
  expect(await isNatsReachable('not a url', 500)).toBe(false);
});
