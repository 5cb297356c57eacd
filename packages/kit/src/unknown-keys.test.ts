import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createComparisonInput, createImportInput, trendReportInput } from '@vrs/contracts';
import { unknownKeys } from './unknown-keys';

/** The keys `schema` refuses in `value`; these pin how zod (4.6) reports them, which an upgrade could change. */
function refused(schema: z.ZodType, value: unknown): string[] {
  const parsed = schema.safeParse(value);
  return parsed.success ? [] : unknownKeys(parsed.error);
}

describe('unknownKeys', () => {
  const search = z.strictObject({ projectId: z.string(), q: z.string().trim().min(1), limit: z.coerce.number<number>().int().default(20) });

  it('names the keys a strict object does not declare, in the order sent, and nothing else', () => {
    expect(refused(search, { projectId: 'p', q: 'mask', limit: '2' })).toEqual([]);
    expect(refused(search, { projectId: 'p', q: 'mask', limt: '2', foo: '' })).toEqual(['limt', 'foo']);
    // Reported beside other failures, so the gateway can put them first.
    expect(refused(search, { projectId: 'p', q: ' ', limt: '2' })).toEqual(['limt']);
  });

  it('names keys through refinements, transforms, defaults and optionals, in nested objects and arrays', () => {
    const body = z
      .strictObject({
        include: z.strictObject({ comments: z.boolean().default(false) }).optional(),
        items: z.array(z.strictObject({ text: z.string() })),
        flag: z.enum(['true', 'false']).transform((value) => value === 'true'),
      })
      .refine(() => true);
    expect(refused(body, { include: { coments: true }, items: [{ text: 'a' }, { text: 'b', sorceKey: 'x' }], flag: 'true' })).toEqual([
      'include.coments',
      'items.1.sorceKey',
    ]);
  });

  it('checks a discriminated union against the member its discriminator names', () => {
    const body = createImportInput;
    expect(refused(body, { source: { type: 'playlist', id: 'PL1', limit: 3 } })).toEqual([]);
    // `limit` belongs to playlists, channels and searches, not to one video.
    expect(refused(body, { source: { type: 'video', id: 'x', limit: 3 }, includ: {} })).toEqual(['source.limit', 'includ']);
  });

  it('in a plain union, names the keys of the member that came closest, and none when no member did', () => {
    const union = z.union([
      z.strictObject({ type: z.literal('a'), x: z.string() }),
      z.strictObject({ type: z.literal('b'), y: z.number() }),
    ]);
    expect(refused(union, { type: 'b', y: 1, x: 's' })).toEqual(['x']);
    expect(refused(union, { type: 'c', y: 1, x: 's' })).toEqual([]);
  });

  it('leaves records and loose objects open, and values that are not objects alone', () => {
    expect(refused(z.record(z.string(), z.string()), { anything: 'x' })).toEqual([]);
    expect(refused(z.looseObject({ a: z.string() }), { a: 'x', b: 'y' })).toEqual([]);
    expect(refused(createComparisonInput, 'not an object')).toEqual([]);
    expect(refused(createComparisonInput, { type: 'video', ids: ['a', 'b'], idz: [] })).toEqual(['idz']);
  });

  it('refuses an unknown key at any depth of the trend report a plan is written from', () => {
    const report = trendReportInput();
    const themes = [{ title: 't', description: 'd', videoIds: [], extra: 1 }];
    expect(refused(report, { insights: { model: 'm', themes, contentGaps: [] } })).toEqual(['insights.themes.0.extra']);
    const thumbnails = [{ url: 'u', width: 1, height: 1, size: 'big' }];
    expect(refused(report, { videos: [{ thumbnails }] })).toEqual(['videos.0.thumbnails.0.size']);
  });
});
