import { describe, expect, it } from 'vitest';
import { queryFrequencies } from './query-frequencies';

describe('queryFrequencies', () => {
  it('counts each asking of a key, and peeking counts nothing', () => {
    const asked = queryFrequencies();
    expect(asked.peek('p1\n3\n0\n20\nalpha beta')).toBe(0);
    expect(asked.record('p1\n3\n0\n20\nalpha beta')).toBe(1);
    expect(asked.record('p1\n3\n0\n20\nalpha beta')).toBe(2);
    expect(asked.record('p1\n3\n0\n20\nalpha gamma')).toBe(1);
    expect(asked.peek('p1\n3\n0\n20\nalpha beta')).toBe(2);
    expect(asked.peek('p1\n3\n0\n20\nalpha beta')).toBe(2);
  });

  it('stops counting at 15', () => {
    const asked = queryFrequencies();
    for (let i = 0; i < 40; i++) asked.record('often');
    expect(asked.peek('often')).toBe(15);
  });

  it('halves every count once ten askings per slot have been recorded', () => {
    const asked = queryFrequencies(16);
    for (let i = 0; i < 12; i++) asked.record('often');
    for (let i = 0; i < 7; i++) asked.record('sometimes');
    // 19 of the 160 askings after which every count halves.
    for (let i = 0; i < 140; i++) asked.record('often');
    expect(asked.peek('often')).toBe(15);
    expect(asked.peek('sometimes')).toBe(7);
    asked.record('often');
    expect(asked.peek('often')).toBe(7);
    expect(asked.peek('sometimes')).toBe(3);
  });

  it('forgets a key once later keys have taken its slot, and keeps what the table can hold', () => {
    const small = queryFrequencies(16);
    const keys = Array.from({ length: 1000 }, (_, i) => `query ${i}`);
    for (const key of keys) small.record(key);
    // 1,000 keys through 16 slots: at most 16 are still counted.
    expect(keys.filter((key) => small.peek(key) > 0).length).toBeLessThanOrEqual(16);
    const roomy = queryFrequencies(4096);
    for (const key of keys.slice(0, 100)) roomy.record(key);
    // 100 keys in 4,096 slots: nearly all counted (a shared slot forgets one of its pair).
    expect(keys.slice(0, 100).filter((key) => roomy.peek(key) === 1).length).toBeGreaterThanOrEqual(95);
  });

  it('takes only a power of two of slots', () => {
    expect(() => queryFrequencies(1000)).toThrow(/power of two/);
  });
});
