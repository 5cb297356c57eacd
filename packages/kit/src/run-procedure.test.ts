import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { initTRPC, type TRPCError } from '@trpc/server';
import { AppError } from './app-error';
import { callRouterProcedure, runProcedure } from './run-procedure';

interface Ctx {
  requestId: string;
  seen?: string[];
  user?: string;
}

const t = initTRPC.context<Ctx>().meta<{ tag: string }>().create({ isDev: false });

/** Adds to the context and records what each middleware saw, before and after the call. */
const traced = t.middleware(async ({ ctx, meta, path, type, next }) => {
  const result = await next({ ctx: { user: 'ada', seen: [...(ctx.seen ?? []), `${type} ${path} ${meta?.tag}`] } });
  return result;
});
/** Replaces the raw input, as a middleware may. */
const upperCased = t.middleware(async ({ getRawInput, next }) => {
  const raw = (await getRawInput()) as { name?: string } | undefined;
  return next({ getRawInput: async () => ({ ...raw, name: raw?.name?.toUpperCase() }) });
});

const router = t.router({
  greet: t.procedure
    .meta({ tag: 'greeting' })
    .use(traced)
    .use(upperCased)
    .input(z.object({ name: z.string().min(2), times: z.number().int().default(1) }))
    .output(z.object({ text: z.string(), user: z.string(), seen: z.array(z.string()), requestId: z.string() }))
    .query(({ input, ctx }) => ({
      text: `hello ${input.name}`.repeat(input.times),
      user: ctx.user!,
      seen: ctx.seen!,
      requestId: ctx.requestId,
      extra: 'stripped by the output parser',
    })),
  fail: t.procedure.mutation(() => {
    throw new AppError('PROJECT_NOT_FOUND', 'no such project');
  }),
  badOutput: t.procedure.output(z.object({ n: z.number() })).query(() => ({ n: 'one' }) as unknown as { n: number }),
  forgetful: t.procedure.use(async () => undefined as never).query(() => 'never'),
});

const ctx: Ctx = { requestId: 'req_1' };
const viaTrpc = t.createCallerFactory(router)(ctx);
const viaRunner = (path: string, type: 'query' | 'mutation', input?: unknown) =>
  callRouterProcedure(router, { path, type, ctx, getRawInput: async () => input, signal: undefined });
const outcome = (promise: Promise<unknown>) =>
  promise.then(
    (data) => ({ data }),
    (error: TRPCError) => ({ error: { name: error.name, code: error.code, message: error.message, cause: error.cause?.constructor.name } }),
  );

describe("runProcedure: the procedure's middlewares as tRPC's own caller runs them", () => {
  it('answers what the caller answers: merged context, replaced raw input, parsed input and output', async () => {
    const expected = await viaTrpc.greet({ name: 'bo', times: 2 });
    expect(expected).toEqual({ text: 'hello BOhello BO', user: 'ada', seen: ['query greet greeting'], requestId: 'req_1' });
    expect(await viaRunner('greet', 'query', { name: 'bo', times: 2 })).toEqual(expected);
    // The caller's context is never changed by a middleware's additions.
    expect(ctx).toEqual({ requestId: 'req_1' });
  });

  it('fails as the caller fails: invalid input, a thrown AppError, invalid output, a middleware that returns nothing', async () => {
    const cases: [string, 'query' | 'mutation', unknown, () => Promise<unknown>][] = [
      ['greet', 'query', { name: 'b' }, () => viaTrpc.greet({ name: 'b' })],
      ['fail', 'mutation', undefined, () => viaTrpc.fail()],
      ['badOutput', 'query', undefined, () => viaTrpc.badOutput()],
      ['forgetful', 'query', undefined, () => viaTrpc.forgetful()],
    ];
    for (const [path, type, input, trpcCall] of cases) {
      const expected = await outcome(trpcCall());
      expect(expected, path).toHaveProperty('error');
      expect(await outcome(viaRunner(path, type, input)), path).toEqual(expected);
    }
  });

  it('refuses a path or type the router does not have with NOT_FOUND', async () => {
    await expect(viaRunner('nothing', 'query')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(viaRunner('greet', 'mutation', { name: 'bo' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('runs a procedure found by the caller, as the REST face does', async () => {
    const data = await runProcedure(router._def.procedures.greet, {
      path: 'greet',
      type: 'query',
      ctx,
      getRawInput: async () => ({ name: 'cy' }),
      signal: undefined,
    });
    expect(data).toMatchObject({ text: 'hello CY' });
  });
});
