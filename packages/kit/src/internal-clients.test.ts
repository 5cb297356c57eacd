import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pino } from 'pino';
import { createTRPCClient, httpBatchLink, httpLink, TRPCClientError } from '@trpc/client';
import { eventually } from '@vrs/testing/api-client';
import { AppError } from './app-error';
import { ConfigError } from './config';
import { clientAllows, newInternalSecret, parseInternalClients, sha256Hex, type InternalClient } from './internal-clients';
import { startServiceServer, type ServiceServer } from './service-server';
import { procedure, router } from './trpc';

const exampleRouter = router({
  notes: router({
    get: procedure.input(z.object({ id: z.string() })).query(({ input, ctx }) => {
      if (input.id === 'missing') throw new AppError('NOT_FOUND', 'no such note');
      return { id: input.id, caller: ctx.caller };
    }),
    create: procedure.input(z.object({ text: z.string() })).mutation(({ input }) => ({ text: input.text })),
  }),
  admin: router({ purge: procedure.mutation(() => ({ purged: true })) }),
});

const client = (name: string, secret: string, allow: string[], readOnly = false) => ({ name, sha256: sha256Hex(secret), allow, readOnly });

describe('internal client entries', () => {
  it('matches allow patterns against <service>.<procedure path>, and readOnly refuses mutations', () => {
    const entry: InternalClient = client('team', 's', ['research.*', 'billing.status.get', 'billing.ledger.*']);
    expect(clientAllows(entry, 'research', 'projects.create', 'mutation')).toBe(true);
    expect(clientAllows(entry, 'billing', 'status.get', 'query')).toBe(true);
    expect(clientAllows(entry, 'billing', 'status.getOther', 'query')).toBe(false);
    expect(clientAllows(entry, 'billing', 'ledger.list', 'query')).toBe(true);
    expect(clientAllows(entry, 'billing', 'accounts.get', 'query')).toBe(false);
    expect(clientAllows(entry, 'researchx', 'projects.get', 'query')).toBe(false);
    const readOnly = client('reader', 's', ['*'], true);
    expect(clientAllows(readOnly, 'trends', 'plans.get', 'query')).toBe(true);
    expect(clientAllows(readOnly, 'trends', 'plans.generate', 'mutation')).toBe(false);
  });

  it('refuses a list with a bad entry, naming it, and two entries of one name', () => {
    expect(() => parseInternalClients('[{"name":"a","sha256":"xyz","allow":["*"]}]', 'INTERNAL_CLIENTS')).toThrow(ConfigError);
    expect(() => parseInternalClients('[{"name":"a","sha256":"xyz","allow":["*"]}]', 'INTERNAL_CLIENTS')).toThrow(
      /INTERNAL_CLIENTS\[0\.sha256\]/,
    );
    expect(() => parseInternalClients(JSON.stringify([client('a', 'x', ['*']), client('a', 'y', ['*'])]), 'F')).toThrow(/same name/);
    expect(() => parseInternalClients('not json', 'F')).toThrow(/not JSON/);
    expect(parseInternalClients(JSON.stringify([client('a', 'x', ['*'])]), 'F')[0]!.readOnly).toBe(false);
  });

  it('makes secrets that differ', () => {
    expect(newInternalSecret()).not.toBe(newInternalSecret());
    expect(newInternalSecret()).toMatch(/^vrsi_[A-Za-z0-9_-]{43}$/);
  });
});

describe('a stock @trpc/client with a named internal credential', () => {
  const token = 'test-internal-token-0123456789';
  const writerSecret = newInternalSecret();
  const readerSecret = newInternalSecret();
  const laterSecret = newInternalSecret();
  const dir = mkdtempSync(join(tmpdir(), 'internal-clients-'));
  const file = join(dir, 'clients.json');
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    {},
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    }),
  );
  let server: ServiceServer;
  beforeAll(async () => {
    writeFileSync(file, JSON.stringify([client('writer', writerSecret, ['example.notes.*']), client('reader', readerSecret, ['*'], true)]));
    server = await startServiceServer({
      service: 'example',
      router: exampleRouter,
      port: 0,
      host: '127.0.0.1',
      internalToken: token,
      internalClients: { file },
      logger,
    });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const stockClient = (secret: string, batch: boolean, onFetch?: (url: string) => void) =>
    createTRPCClient<typeof exampleRouter>({
      links: [
        (batch ? httpBatchLink : httpLink)({
          url: `${server.url}/trpc`,
          headers: { 'x-internal-token': secret },
          fetch: (url, init) => {
            onFetch?.(String(url));
            return fetch(url, init);
          },
        }),
      ],
    });

  it('batches calls into one request, with our appCode on a failed one, and logs the client by name', async () => {
    const urls: string[] = [];
    const writer = stockClient(writerSecret, true, (url) => urls.push(url));
    const [one, two, missing] = await Promise.all([
      writer.notes.get.query({ id: 'n1' }),
      writer.notes.get.query({ id: 'n2' }),
      writer.notes.get.query({ id: 'missing' }).catch((error: unknown) => error),
    ]);
    expect(urls).toHaveLength(1);
    expect(urls[0]).toContain('notes.get,notes.get,notes.get?batch=1');
    expect(one).toEqual({ id: 'n1', caller: 'writer' });
    expect(two).toEqual({ id: 'n2', caller: 'writer' });
    expect(missing).toBeInstanceOf(TRPCClientError);
    expect((missing as TRPCClientError<typeof exampleRouter>).data).toMatchObject({ code: 'NOT_FOUND', appCode: 'NOT_FOUND' });
    await eventually(async () => lines.find((line) => line.client === 'writer' && String(line.path).includes('notes.get,')));
    expect(lines.find((line) => line.client === 'writer')).toMatchObject({ msg: 'internal client call', service: 'example', status: 207 });

    expect(await stockClient(writerSecret, false).notes.create.mutate({ text: 'hi' })).toEqual({ text: 'hi' });
  });

  it('refuses a procedure outside the allow list, and a mutation to a read-only client, as FORBIDDEN with appCode INSUFFICIENT_SCOPE', async () => {
    for (const batch of [true, false]) {
      const refused = await stockClient(writerSecret, batch)
        .admin.purge.mutate()
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(TRPCClientError);
      expect((refused as TRPCClientError<typeof exampleRouter>).data).toMatchObject({
        code: 'FORBIDDEN',
        httpStatus: 403,
        appCode: 'INSUFFICIENT_SCOPE',
      });
      const reader = stockClient(readerSecret, batch);
      expect(await reader.notes.get.query({ id: 'n3' })).toEqual({ id: 'n3', caller: 'reader' });
      const write = await reader.notes.create.mutate({ text: 'no' }).catch((error: unknown) => error);
      expect((write as TRPCClientError<typeof exampleRouter>).data).toMatchObject({ code: 'FORBIDDEN', appCode: 'INSUFFICIENT_SCOPE' });
    }
  });

  it('answers an unknown secret 401 UNAUTHORIZED in tRPC’s shape, batched or not', async () => {
    for (const batch of [true, false]) {
      const refused = await stockClient('vrsi_not-a-configured-secret', batch)
        .notes.get.query({ id: 'n1' })
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(TRPCClientError);
      expect((refused as TRPCClientError<typeof exampleRouter>).data).toMatchObject({
        code: 'UNAUTHORIZED',
        httpStatus: 401,
        appCode: 'UNAUTHENTICATED',
      });
    }
  });

  it('takes a client added to, or revoked from, the file without a restart', async () => {
    writeFileSync(file, JSON.stringify([client('reader', readerSecret, ['*'], true), client('later', laterSecret, ['*'])]));
    expect(await eventually(() => stockClient(laterSecret, false).admin.purge.mutate(), { timeoutMs: 30_000 })).toEqual({ purged: true });
    const revoked = await stockClient(writerSecret, false)
      .notes.get.query({ id: 'n1' })
      .catch((error: unknown) => error);
    expect((revoked as TRPCClientError<typeof exampleRouter>).data).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('keeps the services’ own token working, caller from X-Caller', async () => {
    const response = await fetch(`${server.url}/trpc/notes.get?input=${encodeURIComponent(JSON.stringify({ id: 'n4' }))}`, {
      headers: { 'x-internal-token': token, 'x-caller': 'research' },
    });
    expect(await response.json()).toEqual({ result: { data: { id: 'n4', caller: 'research' } } });
  });
});
