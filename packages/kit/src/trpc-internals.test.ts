import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { getErrorShape, initTRPC, TRPCError } from '@trpc/server';
import { definitionOf, errorConfigOf, proceduresOf } from './trpc-internals';

const t = initTRPC.meta<{ tag: string }>().create({
  isDev: false,
  errorFormatter: ({ shape }) => ({ ...shape, data: { ...shape.data, formatted: true } }),
});
const name = z.object({ name: z.string() });
const times = z.object({ times: z.number() });
const passOn = async ({ next }: { next: () => Promise<unknown> }) => next();
const router = t.router({
  greet: t.procedure
    .use(t.middleware(passOn as never))
    .meta({ tag: 'greeting' })
    .input(name)
    .input(times)
    .query(() => 'hi'),
  nested: t.router({ save: t.procedure.mutation(() => 'saved') }),
});

describe('the tRPC definitions read by trpc-internals.ts (pinned @trpc/server)', () => {
  it('is the version these reads were written against: an upgrade re-checks them here', () => {
    const version = (createRequire(import.meta.url)('@trpc/server/package.json') as { version: string }).version;
    expect(version).toBe('11.25.2');
  });

  it('lists every procedure by its dotted path, with its type, meta, inputs in order and middlewares (those given first)', () => {
    const procedures = proceduresOf(router);
    expect(Object.keys(procedures).sort()).toEqual(['greet', 'nested.save']);
    const greet = definitionOf(procedures.greet!);
    expect(greet).toMatchObject({ type: 'query', meta: { tag: 'greeting' }, inputs: [name, times] });
    expect(greet.middlewares[0]).toBe(passOn);
    expect(definitionOf(procedures['nested.save']!)).toMatchObject({ type: 'mutation', meta: undefined, inputs: [] });
  });

  it("hands getErrorShape the router's config: its error formatter shapes the error", () => {
    const shape = getErrorShape({
      config: errorConfigOf(router),
      error: new TRPCError({ code: 'NOT_FOUND', message: 'gone' }),
      type: 'query',
      path: 'greet',
      input: undefined,
      ctx: {},
    });
    expect(shape).toMatchObject({ message: 'gone', code: -32004, data: { code: 'NOT_FOUND', httpStatus: 404, formatted: true } });
  });
});
