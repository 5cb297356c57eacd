import { describe, expect, it } from 'vitest';
import { nextDigestAt } from './next-digest-at';

const utc = (iso: string) => Date.parse(iso);

describe('nextDigestAt', () => {
  it('daily: the next local hour, today or tomorrow', () => {
    const prefs = { frequency: 'daily' as const, hourOfDay: 9, timezone: 'Europe/Berlin' };
    // 07:30 UTC in January is 08:30 in Berlin: today 09:00 local = 08:00 UTC.
    expect(nextDigestAt(prefs, utc('2026-01-20T07:30:00Z'))).toBe(utc('2026-01-20T08:00:00Z'));
    // Exactly at it: the next one is tomorrow.
    expect(nextDigestAt(prefs, utc('2026-01-20T08:00:00Z'))).toBe(utc('2026-01-21T08:00:00Z'));
    // Summer time: 09:00 in Berlin is 07:00 UTC.
    expect(nextDigestAt(prefs, utc('2026-07-01T00:00:00Z'))).toBe(utc('2026-07-01T07:00:00Z'));
  });

  it('half-hour offsets and the far side of the date line', () => {
    expect(nextDigestAt({ frequency: 'daily', hourOfDay: 9, timezone: 'Asia/Kolkata' }, utc('2026-01-20T00:00:00Z'))).toBe(
      utc('2026-01-20T03:30:00Z'),
    );
    expect(nextDigestAt({ frequency: 'daily', hourOfDay: 0, timezone: 'Pacific/Auckland' }, utc('2026-01-20T00:00:00Z'))).toBe(
      utc('2026-01-20T11:00:00Z'),
    );
  });

  it('weekly: Mondays at the local hour; off: null', () => {
    // 2026-01-20 is a Tuesday: the next Monday is the 26th.
    expect(nextDigestAt({ frequency: 'weekly', hourOfDay: 18, timezone: 'America/New_York' }, utc('2026-01-20T12:00:00Z'))).toBe(
      utc('2026-01-26T23:00:00Z'),
    );
    expect(nextDigestAt({ frequency: 'off', hourOfDay: 18, timezone: 'UTC' }, 0)).toBeNull();
  });

  it('an hour that DST skips comes the next day', () => {
    // Berlin skips 02:00–03:00 on 2026-03-29.
    expect(nextDigestAt({ frequency: 'daily', hourOfDay: 2, timezone: 'Europe/Berlin' }, utc('2026-03-28T02:00:00Z'))).toBe(
      utc('2026-03-30T00:00:00Z'),
    );
  });
});
