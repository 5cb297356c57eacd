import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from './app-error';
import { createLogger } from './logger';
import { internalTokenHeader, startServiceServer, type ServiceServer } from './service-server';
import { procedure, router } from './trpc';

const exampleRouter = router({
  double: procedure.input(z.object({ n: z.number() })).query(({ input }) => ({ doubled: input.n * 2 })),
  save: procedure.input(z.object({ name: z.string().min(1) })).mutation(({ input }) => ({ saved: input.name })),
  fail: procedure.query(() => {
    throw new AppError('PROJECT_NOT_FOUND', 'no such project', { projectId: 'p1' });
  }),
});

/** The same calls, answered by the direct path and by tRPC's own adapter (as a one-call batch). */
describe('the service call handler speaks tRPC’s HTTP protocol', () => {
  const token = 'test-internal-token-0123456789';
  let server: ServiceServer;
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}/trpc/${path}`, { ...init, headers: { [internalTokenHeader]: token, 'content-type': 'application/json' } });
  beforeAll(async () => {
    server = await startServiceServer({
      service: 'example',
      router: exampleRouter,
      port: 0,
      host: '127.0.0.1',
      internalToken: token,
      logger: createLogger('test'),
    });
  });
  afterAll(() => server.close());

  it('answers a query, a mutation and a failure as tRPC’s adapter does', async () => {
    const input = encodeURIComponent(JSON.stringify({ n: 21 }));
    const direct = await call(`double?input=${input}`);
    const batched = await call(`double?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: { n: 21 } }))}`);
    expect(direct.status).toBe(200);
    expect(await direct.json()).toEqual({ result: { data: { doubled: 42 } } });
    expect(((await batched.json()) as unknown[])[0]).toEqual({ result: { data: { doubled: 42 } } });

    const saved = await call('save', { method: 'POST', body: JSON.stringify({ name: 'x' }) });
    expect(await saved.json()).toEqual({ result: { data: { saved: 'x' } } });

    const failures: [string, unknown][] = [
      ['fail', undefined],
      ['double', { n: 'no' }],
    ];
    for (const [path, failing] of failures) {
      const inputOf = (value: unknown) => (value === undefined ? '' : `input=${encodeURIComponent(JSON.stringify(value))}`);
      const single = await call(`${path}?${inputOf(failing)}`);
      const batch = await call(`${path}?batch=1&${inputOf(failing === undefined ? undefined : { 0: failing })}`);
      const [fromAdapter] = (await batch.json()) as unknown[];
      expect(single.status).toBe(batch.status);
      const fromHandler = await single.json();
      // tRPC's error shape carries the stack only in development; the rest must match exactly.
      expect(fromHandler).toEqual(fromAdapter);
    }
  });

  it('leaves to tRPC’s adapter what it does not serve: a method the procedure does not take, an unknown path', async () => {
    expect((await call('save')).status).toBe(405);
    expect((await call('nothing-here')).status).toBe(404);
    expect((await call('save', { method: 'POST', body: '{not json' })).status).toBe(400);
  });
});
