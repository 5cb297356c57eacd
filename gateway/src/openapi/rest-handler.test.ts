import express from 'express';
import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { listenOnFreePort, type ListeningServer } from '@vrs/testing/http-server';
import { z } from 'zod';
import { AppError, shareJson } from '@vrs/kit';
import type { GatewayContext } from '../context';
import type { GatewayMeta } from '../trpc';
import { answerShared, createRestHandler } from './rest-handler';

const t = initTRPC.context<GatewayContext>().meta<OpenApiMeta<GatewayMeta>>().create();
const pageSchema = z.object({ query: z.string() });
const sharedPage = shareJson({ internal: 'not in the contract', query: 'shared' });
const queryInput = z.object({
  limit: z.coerce.number<number>().int().optional(),
  tags: z.array(z.string()).optional(),
  q: z.string().optional(),
});

const router = t.router({
  parsed: t.procedure
    .meta({ openapi: { method: 'GET', path: '/parsed' } })
    .input(z.void())
    // What a service might answer beyond the schema: the output parse strips it.
    .output(pageSchema)
    .query(async () => ({ query: 'q', internal: 'not in the contract' })),
  // A shared answer (as research's cached search page), always the same object, beside what a service might add.
  shared: t.procedure
    .meta({ openapi: { method: 'GET', path: '/shared' } })
    .input(z.void())
    .output(pageSchema)
    .query(({ ctx }) => answerShared(ctx, sharedPage)),
  echo: t.procedure
    .meta({ openapi: { method: 'GET', path: '/echo/{q}' } })
    .input(queryInput)
    .query(({ input }) => input),
});

describe('the REST face', () => {
  let server: ListeningServer;
  let base: string;
  beforeAll(async () => {
    const app = express();
    app.use(
      createRestHandler({
        router,
        createContext: (_req, res) => ({ res }) as unknown as GatewayContext,
        toAppError: () => new AppError('VALIDATION_FAILED'),
        responseMeta: () => ({}),
      }),
    );
    server = await listenOnFreePort(app);
    base = server.url;
  });
  afterAll(() => server.close());

  it('parses an answer through its output schema', async () => {
    expect(await (await fetch(`${base}/parsed`)).json()).toEqual({ query: 'q' });
  });

  it('writes a shared answer as its parsed JSON, serialized once however often it is asked', async () => {
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      for (let i = 0; i < 3; i++) expect(await (await fetch(`${base}/shared`)).text()).toBe('{"query":"shared"}');
      expect(stringify.mock.calls.filter(([value]) => (value as { query?: string } | null)?.query === 'shared')).toHaveLength(1);
    } finally {
      stringify.mockRestore();
    }
  });

  it('reads the query as the schema declares it: coerced numbers, one value of an array field as a list, the path', async () => {
    expect(await (await fetch(`${base}/echo/masks?limit=5&tags=a`)).json()).toEqual({ limit: 5, tags: ['a'], q: 'masks' });
    expect(await (await fetch(`${base}/echo/masks?tags=a&tags=b&limit=`)).json()).toEqual({ tags: ['a', 'b'], q: 'masks' });
    expect((await fetch(`${base}/echo/masks?limit=five`)).status).toBe(422);
  });
});
