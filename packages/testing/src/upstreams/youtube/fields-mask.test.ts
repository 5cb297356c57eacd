import { describe, expect, it } from 'vitest';
import { applyFieldsMask } from './fields-mask';

describe('$fields projection', () => {
  it('keeps the named top-level fields and dotted paths, through arrays', () => {
    const body = { a: 1, b: { c: [{ d: 1, e: 2 }], f: 3 }, g: 4 };
    expect(applyFieldsMask(body, 'a,b.c.d')).toEqual({ a: 1, b: { c: [{ d: 1 }] } });
    expect(applyFieldsMask(body, 'b.c,b.f')).toEqual({ b: { c: [{ d: 1, e: 2 }], f: 3 } });
  });

  it('refuses syntax it does not implement rather than guessing', () => {
    expect(() => applyFieldsMask({}, 'a(b,c)')).toThrow(/unsupported/);
  });
});
