import { describe, expect, it } from 'vitest';
import { addMonthsClamped, periodContaining } from './periods';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('billing periods', () => {
  it('keep the anchor day and time of day, clamped to shorter months and back again', () => {
    const anchor = at('2027-01-31T09:30:00.000Z');
    expect([1, 2, 3, 13].map((months) => iso(addMonthsClamped(anchor, months)))).toEqual([
      '2027-02-28T09:30:00.000Z',
      '2027-03-31T09:30:00.000Z',
      '2027-04-30T09:30:00.000Z',
      '2028-02-29T09:30:00.000Z',
    ]);
    expect(iso(addMonthsClamped(at('2026-11-15T00:00:00.000Z'), 2))).toBe('2027-01-15T00:00:00.000Z');
  });

  it('find the period containing a moment, starts included and ends excluded', () => {
    const anchor = at('2027-01-31T09:30:00.000Z');
    const period = (now: string) => {
      const { start, end } = periodContaining(anchor, at(now));
      return [iso(start), iso(end)];
    };
    expect(period('2027-01-31T09:30:00.000Z')).toEqual(['2027-01-31T09:30:00.000Z', '2027-02-28T09:30:00.000Z']);
    expect(period('2027-02-28T09:29:59.999Z')).toEqual(['2027-01-31T09:30:00.000Z', '2027-02-28T09:30:00.000Z']);
    expect(period('2027-02-28T09:30:00.000Z')).toEqual(['2027-02-28T09:30:00.000Z', '2027-03-31T09:30:00.000Z']);
    expect(period('2027-03-15T00:00:00.000Z')).toEqual(['2027-02-28T09:30:00.000Z', '2027-03-31T09:30:00.000Z']);
    expect(period('2028-07-01T00:00:00.000Z')).toEqual(['2028-06-30T09:30:00.000Z', '2028-07-31T09:30:00.000Z']);
    // A clock behind the anchor still answers the first period.
    expect(period('2027-01-01T00:00:00.000Z')).toEqual(['2027-01-31T09:30:00.000Z', '2027-02-28T09:30:00.000Z']);
  });
});
