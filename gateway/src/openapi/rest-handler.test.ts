import express from 'express';
import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnFreePort, type ListeningServer } from '@vrs/testing/http-server';
import { z } from 'zod';
import { AppError, shareJson } from '@vrs/kit';
import type { GatewayContext } from '../context';
import type { GatewayMeta } from '../trpc';
import { createRestHandler } from './rest-handler';

const t = initTRPC.context<GatewayContext>().meta<OpenApiMeta<GatewayMeta>>().create();
const pageSchema = z.object({ query: z.string() });
/** What a service might answer beyond the schema: the output parse strips it. */
const answer = async () => ({ query: 'q', internal: 'not in the contract' });

/** One shared answer, always the same object, and a fresh one that changes with every call. */
const sharedPage = shareJson({ query: 'shared' });
let calls = 0;

const router = t.router({
  shared: t.procedure
    .meta({ openapi: { method: 'GET', path: '/shared' }, outputShapedBy: 'this test' })
    .input(z.void())
    .output(pageSchema)
    .query(async () => sharedPage),
  fresh: t.procedure
    .meta({ openapi: { method: 'GET', path: '/fresh' }, outputShapedBy: 'this test' })
    .input(z.void())
    .output(pageSchema)
    .query(async () => ({ query: `call ${++calls}` })),
  parsed: t.procedure
    .meta({ openapi: { method: 'GET', path: '/parsed' } })
    .input(z.void())
    .output(pageSchema)
    .query(answer),
  shaped: t.procedure
    .meta({ openapi: { method: 'GET', path: '/shaped' }, outputShapedBy: 'a service whose test holds its answer to the schema' })
    .input(z.void())
    .output(pageSchema)
    .query(answer),
});

describe('the REST face', () => {
  let server: ListeningServer;
  let base: string;
  beforeAll(async () => {
    const app = express();
    app.use(
      createRestHandler({
        router,
        createContext: () => ({}) as GatewayContext,
        toAppError: () => new AppError('INTERNAL_ERROR'),
        responseMeta: () => ({}),
      }),
    );
    server = await listenOnFreePort(app);
    base = server.url;
  });
  afterAll(() => server.close());

  it('parses an answer through its output schema, unless the meta names the service that shapes it', async () => {
    expect(await (await fetch(`${base}/parsed`)).json()).toEqual({ query: 'q' });
    expect(await (await fetch(`${base}/shaped`)).json()).toEqual({ query: 'q', internal: 'not in the contract' });
  });

  it('writes a shared answer as its JSON every time, and a fresh answer as what it holds each time', async () => {
    for (let i = 0; i < 2; i++) expect(await (await fetch(`${base}/shared`)).text()).toBe('{"query":"shared"}');
    expect(await (await fetch(`${base}/fresh`)).json()).toEqual({ query: 'call 1' });
    expect(await (await fetch(`${base}/fresh`)).json()).toEqual({ query: 'call 2' });
  });
});
