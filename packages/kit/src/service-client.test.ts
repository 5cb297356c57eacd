import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TRPCClientError } from '@trpc/client';
import { projectRefInputSchema } from '@vrs/contracts';
import { AppError } from './app-error';
import { createLogger } from './logger';
import { createServiceClient, forRequest } from './service-client';
import { startServiceServer, type ServiceServer } from './service-server';
import { appErrorOfServiceCall, isAppErrorData, procedure, router } from './trpc';

let release: (value: string) => void = () => {};
const hung = new Promise<string>((resolve) => {
  release = resolve;
});

const exampleRouter = router({
  echo: procedure.input(z.object({ text: z.string().min(1) })).query(({ input, ctx }) => ({
    text: input.text,
    requestId: ctx.requestId,
    caller: ctx.caller,
  })),
  increment: procedure.input(z.object({ by: z.number().int() })).mutation(({ input }) => ({ value: 1 + input.by, at: new Date(0) })),
  /** A contract's procedure input, strict as every service input is. */
  getProject: procedure.input(projectRefInputSchema).query(({ input }) => input),
  /** Never answers until the test lets it go: a hung service. */
  hang: procedure.query(() => hung),
  fail: procedure.query(() => {
    throw new AppError('PROJECT_NOT_FOUND', 'no such project', { projectId: 'p1' });
  }),
  /** A bug, or a driver's failure nothing recognised: its words are for the service's log, not the caller. */
  crash: procedure.mutation(() => {
    throw new Error('database or disk is full');
  }),
  /** What the store throws when the disk is full (StorageFullError is an AppError of this code). */
  full: procedure.mutation(() => {
    throw new AppError('INSUFFICIENT_STORAGE');
  }),
});

describe('service clients: in-process and HTTP behave the same', () => {
  const token = 'test-internal-token-0123456789';
  let server: ServiceServer;
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
  afterAll(() => {
    release('released');
    return server.close();
  });

  /** An HTTP client of the example service: the internal token, caller `research`, 10 s, unless told otherwise. */
  const httpClient = (options: { internalToken?: string; caller?: string; timeoutMs?: number } = {}) =>
    createServiceClient<typeof exampleRouter>({
      mode: 'http',
      url: server.url,
      internalToken: options.internalToken ?? token,
      caller: options.caller ?? 'research',
      timeoutMs: options.timeoutMs ?? 10_000,
    });

  const clients = () => ({
    inprocess: createServiceClient<typeof exampleRouter>({ mode: 'inprocess', router: exampleRouter, caller: 'research' }),
    http: httpClient(),
  });

  it('returns the same JSON, carrying the request id and caller', async () => {
    for (const [mode, client] of Object.entries(clients())) {
      const echoed = await forRequest(client, { requestId: `req-${mode}` }).echo.query({ text: 'hi' });
      expect(echoed, mode).toEqual({ text: 'hi', requestId: `req-${mode}`, caller: 'research' });
      // An unbound client's calls are each a request of their own.
      const unbound = await Promise.all([client.echo.query({ text: 'a' }), client.echo.query({ text: 'b' })]);
      expect(
        unbound.map((answer) => answer.requestId),
        mode,
      ).toEqual([expect.stringMatching(/^req_/), expect.stringMatching(/^req_/)]);
      expect(unbound[0].requestId, mode).not.toBe(unbound[1].requestId);
      // Dates arrive as strings either way: the in-process client copies through JSON too.
      expect(await client.increment.mutate({ by: 2 }), mode).toEqual({ value: 3, at: '1970-01-01T00:00:00.000Z' });
    }
  });

  it('names a caller over HTTP only as one of ours: any other name the token holder sends is `other`', async () => {
    const stranger = httpClient({ caller: 'customer-42' });
    expect((await stranger.echo.query({ text: 'hi' })).caller).toBe('other');
  });

  it('reports AppErrors and validation failures with the same shape', async () => {
    for (const [mode, client] of Object.entries(clients())) {
      const failure = await client.fail.query().catch((error: unknown) => error);
      expect(failure, mode).toBeInstanceOf(TRPCClientError);
      const data = (failure as TRPCClientError<never>).data;
      expect(isAppErrorData(data), mode).toBe(true);
      expect(data, mode).toMatchObject({ appCode: 'PROJECT_NOT_FOUND', details: { projectId: 'p1' } });
      expect((failure as Error).message).toBe('no such project');

      const invalid = (await client.echo.query({ text: '' }).catch((error: unknown) => error)) as TRPCClientError<never>;
      expect(invalid.data, mode).toMatchObject({ appCode: 'VALIDATION_FAILED' });
    }
  });

  it('refuses a key the procedure does not declare as 4xx UNKNOWN_PARAMETER naming it, never dropping it silently (issue 38)', async () => {
    for (const [mode, client] of Object.entries(clients())) {
      const call = { accountId: 'acc_1', projectId: 'p1', projectid: 'p1' } as { accountId: string; projectId: string };
      const failure = (await client.getProject.query(call).catch((error: unknown) => error)) as TRPCClientError<never>;
      expect(failure, mode).toBeInstanceOf(TRPCClientError);
      expect(failure.data, mode).toMatchObject({ appCode: 'UNKNOWN_PARAMETER', details: { parameters: ['projectid'] }, httpStatus: 400 });
      expect(appErrorOfServiceCall(failure), mode).toMatchObject({ code: 'UNKNOWN_PARAMETER', status: 422 });
      expect(await client.getProject.query({ accountId: 'acc_1', projectId: 'p1' }), mode).toEqual({ accountId: 'acc_1', projectId: 'p1' });
    }
  });

  it('passes a full disk on as 507 INSUFFICIENT_STORAGE, and an unexpected failure as INTERNAL_ERROR without its words (issue 37, item 8)', async () => {
    for (const [mode, client] of Object.entries(clients())) {
      const full = appErrorOfServiceCall(await client.full.mutate().catch((error: unknown) => error));
      expect(full, mode).toMatchObject({ code: 'INSUFFICIENT_STORAGE', status: 507 });
      const crash = appErrorOfServiceCall(await client.crash.mutate().catch((error: unknown) => error));
      expect(crash, mode).toMatchObject({ code: 'INTERNAL_ERROR', status: 500, message: 'An unexpected error occurred.' });
    }
  });

  it('refuses HTTP calls without the internal token', async () => {
    const intruder = httpClient({ internalToken: 'wrong-token-0123456789' });
    await expect(intruder.echo.query({ text: 'hi' })).rejects.toThrow();
    const response = await fetch(`${server.url}/trpc/echo?input=${encodeURIComponent(JSON.stringify({ text: 'hi' }))}`);
    expect(response.status).toBe(401);
  });

  it('abandons an HTTP call the service does not answer within timeoutMs, as a call that got no answer (issue 13)', async () => {
    const impatient = httpClient({ timeoutMs: 200 });
    const failure = await impatient.hang.query().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TRPCClientError);
    // No answer, so no error data: the caller reports the service as unavailable.
    expect((failure as TRPCClientError<never>).data).toBeUndefined();
    expect((failure as Error).message).toMatch(/timeout|aborted/i);
  });

  it('is not mistaken for a promise', async () => {
    const { inprocess } = clients();
    expect(await Promise.resolve(inprocess)).toBe(inprocess);
  });
});
