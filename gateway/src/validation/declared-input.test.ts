import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { comparisonBody, createImportBody } from '@vrs/contracts';
import { undeclaredKeys } from './declared-input';

describe('undeclaredKeys', () => {
  const search = z.object({ projectId: z.string(), q: z.string().trim().min(1), limit: z.number().int().default(20) });

  it('names the keys an object schema does not declare, and nothing else', () => {
    expect(undeclaredKeys(search, { projectId: 'p', q: 'mask', limit: '2' })).toEqual([]);
    expect(undeclaredKeys(search, { projectId: 'p', q: 'mask', limt: '2', foo: '' })).toEqual(['limt', 'foo']);
  });

  it('looks through refinements, transforms, defaults and optionals, and into nested objects and arrays', () => {
    const body = z
      .object({
        include: z.object({ comments: z.boolean().default(false) }).optional(),
        items: z.array(z.object({ text: z.string() })),
        flag: z.enum(['true', 'false']).transform((value) => value === 'true'),
      })
      .refine(() => true);
    expect(
      undeclaredKeys(body, { include: { coments: true }, items: [{ text: 'a' }, { text: 'b', sorceKey: 'x' }], flag: 'true' }),
    ).toEqual(['include.coments', 'items.1.sorceKey']);
  });

  it('checks a discriminated union against the member its discriminator names', () => {
    const body = createImportBody();
    expect(undeclaredKeys(body, { source: { type: 'playlist', id: 'PL1', limit: 3 } })).toEqual([]);
    // `limit` belongs to playlists, channels and searches, not to one video.
    expect(undeclaredKeys(body, { source: { type: 'video', id: 'x', limit: 3 }, includ: {} })).toEqual(['source.limit', 'includ']);
  });

  it('accepts any key where the schema does (records, loose objects) and ignores values that are not objects', () => {
    expect(undeclaredKeys(z.record(z.string(), z.string()), { anything: 'x' })).toEqual([]);
    expect(undeclaredKeys(z.looseObject({ a: z.string() }), { a: 'x', b: 'y' })).toEqual([]);
    expect(undeclaredKeys(comparisonBody(), 'not an object')).toEqual([]);
    expect(undeclaredKeys(comparisonBody(), { type: 'video', ids: ['a', 'b'], idz: [] })).toEqual(['idz']);
  });
});
