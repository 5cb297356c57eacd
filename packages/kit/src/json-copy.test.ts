import { describe, expect, it } from 'vitest';
import { isSharedJson, jsonCopy, shareJson } from './json-copy';

const throughJson = (value: unknown) => {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
};

/** A small seeded generator (mulberry32), so a failure names a value that can be made again. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Point {
  constructor(
    public x: number,
    public y: number,
  ) {}
}

const leaves: (() => unknown)[] = [
  () => 'text',
  () => '',
  () => '\ud800 lone surrogate',
  () => 42,
  () => -0,
  () => 1.5e300,
  () => Number.NaN,
  () => Number.POSITIVE_INFINITY,
  () => true,
  () => null,
  () => undefined,
  () => () => 1,
  () => Symbol('s'),
  () => new Date(Date.UTC(2026, 10, 25)),
  () => new Point(1, 2),
  () => ({ toJSON: () => ({ replaced: true }) }),
  () => new Map([[1, 2]]),
  () => Object.create(null),
];

function arbitrary(next: () => number, depth: number): unknown {
  const pick = next();
  if (depth <= 0 || pick < 0.45) return leaves[Math.floor(next() * leaves.length)]!();
  if (pick < 0.7) return Array.from({ length: Math.floor(next() * 5) }, () => arbitrary(next, depth - 1));
  const object: Record<string, unknown> = {};
  for (let i = Math.floor(next() * 5); i > 0; i--)
    object[['a', 'b', '10', '2', 'key with space', 'é'][Math.floor(next() * 6)]!] = arbitrary(next, depth - 1);
  return object;
}

describe('jsonCopy', () => {
  it('answers what JSON.parse(JSON.stringify(…)) answers, over 5,000 generated values', () => {
    for (let seed = 1; seed <= 5_000; seed++) {
      const value = arbitrary(random(seed), 4);
      expect(jsonCopy(value), `seed ${seed}`).toStrictEqual(throughJson(value));
    }
  });

  it("keeps JSON's own rules: -0 becomes 0, holes and undefined in arrays become null, key order is JSON's", () => {
    expect(Object.is(jsonCopy(-0), 0)).toBe(true);
    expect(Object.is(jsonCopy({ n: -0 }).n, 0)).toBe(true);
    // biome-ignore lint/suspicious/noSparseArray: a hole is what is being copied
    expect(jsonCopy([1, , undefined, Number.NaN])).toStrictEqual([1, null, null, null]);
    expect(Object.keys(jsonCopy({ b: 1, 10: 2, a: 3, 2: 4 }))).toEqual(['2', '10', 'b', 'a']);
  });

  it('copies a `__proto__` key as an own property, as JSON.parse does, never as a prototype', () => {
    const value = JSON.parse('{"__proto__":{"polluted":true},"x":1}');
    const copy = jsonCopy(value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect((copy as { polluted?: boolean }).polluted).toBeUndefined();
    expect(copy).toStrictEqual(throughJson(value));
  });

  it('shares nothing with what it copied, even frozen input', () => {
    const hit = Object.freeze({ id: 'a', tags: Object.freeze(['x']) });
    const page = { results: Object.freeze([hit]) };
    const copy = jsonCopy(page);
    expect(copy).toStrictEqual(page);
    expect(copy.results).not.toBe(page.results);
    expect(copy.results[0]).not.toBe(hit);
    expect(Object.isFrozen(copy.results[0])).toBe(false);
    (copy.results[0]!.tags as string[])[0] = 'changed';
    expect(hit.tags[0]).toBe('x');
  });

  it('fails where JSON fails: a bigint, a cycle', () => {
    expect(() => jsonCopy({ n: 1n })).toThrow(TypeError);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => jsonCopy(cycle)).toThrow();
  });
});

describe('shareJson', () => {
  it('answers the JSON copy of a value, frozen to its leaves, which jsonCopy then hands out as it is', () => {
    const when = new Date('2026-11-27T10:00:00.000Z');
    const answer = { query: 'q', results: [{ id: 'a', at: when, gone: undefined, score: -0 }] };
    const shared = shareJson(answer);

    expect(shared).toStrictEqual(throughJson(answer));
    expect(Object.isFrozen(shared) && Object.isFrozen(shared.results) && Object.isFrozen(shared.results[0])).toBe(true);
    expect(isSharedJson(shared)).toBe(true);
    expect(jsonCopy(shared)).toBe(shared);
    expect(() => {
      (shared.results as unknown[]).push('more');
    }).toThrow(TypeError);
  });

  it('marks only what it made: a frozen value of its own is still copied', () => {
    const frozen = Object.freeze({ results: Object.freeze([Object.freeze({ id: 'a' })]) });
    expect(isSharedJson(frozen)).toBe(false);
    expect(jsonCopy(frozen)).not.toBe(frozen);
    expect(isSharedJson(shareJson('text'))).toBe(false);
  });
});
