import { describe, expect, it } from 'vitest';
import { askedBefore } from './asked-before';

describe('askedBefore', () => {
  it('answers false the first time a key is asked and true after', () => {
    const seen = askedBefore();
    expect(seen('p1\n3\n0\n20\nalpha beta')).toBe(false);
    expect(seen('p1\n3\n0\n20\nalpha beta')).toBe(true);
    expect(seen('p1\n3\n0\n20\nalpha gamma')).toBe(false);
    expect(seen('p1\n3\n0\n20\nalpha beta')).toBe(true);
  });

  it('forgets a key once later keys have taken its slot, and keeps what the table can hold', () => {
    const seen = askedBefore(16);
    const keys = Array.from({ length: 1000 }, (_, i) => `query ${i}`);
    for (const key of keys) seen(key);
    // 1,000 keys through 16 slots: at most 16 are still remembered.
    expect(keys.filter((key) => seen(key)).length).toBeLessThanOrEqual(16);
    const roomy = askedBefore(4096);
    for (const key of keys.slice(0, 100)) roomy(key);
    // 100 keys in 4,096 slots: nearly all remembered (a shared slot forgets one of its pair).
    expect(keys.slice(0, 100).filter((key) => roomy(key)).length).toBeGreaterThanOrEqual(95);
  });

  it('takes only a power of two of slots', () => {
    expect(() => askedBefore(1000)).toThrow(/power of two/);
  });
});
