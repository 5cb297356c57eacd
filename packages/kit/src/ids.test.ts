import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { newId, newUuid } from './ids';

describe('ids', () => {
  it('are version 7 UUIDs that zod and the contract accept, carrying their creation time', () => {
    const now = Date.UTC(2026, 10, 24, 12, 0, 0);
    const id = newUuid(now + 10_000);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(z.uuid().safeParse(id).success).toBe(true);
    expect(Number.parseInt(id.replace('-', '').slice(0, 12), 16)).toBe(now + 10_000);
  });

  it('increase strictly within a process: the same millisecond, a clock stepping back, a sequence overflow', () => {
    const start = Date.UTC(2030, 0, 1);
    const ids = [...Array.from({ length: 5_000 }, () => newUuid(start)), newUuid(start - 60_000), newUuid(start + 1), newUuid(start + 1)];
    const sorted = [...ids].sort();
    expect(ids).toEqual(sorted);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('prefix 32 hex digits, in creation order', () => {
    const first = newId('job');
    const second = newId('job');
    expect(first).toMatch(/^job_[0-9a-f]{32}$/);
    expect(second > first).toBe(true);
  });
});
