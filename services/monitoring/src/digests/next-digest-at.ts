import type { DigestPreferences } from '@vrs/contracts';

const quarterHourMs = 15 * 60_000;
/** Long enough to reach the next Monday at any hour, whatever the DST shifts on the way. */
const searchHorizonMs = 8 * 24 * 3_600_000;

/**
 * The first instant after `after` at which the local time in `timezone` is `hourOfDay`:00 (on a
 * Monday for weekly digests); null when digests are off. Walks quarter hours in UTC, so zones with
 * half- and quarter-hour offsets and DST changes need no table. An hour a DST change skips that day
 * is skipped too: the digest comes the next day.
 */
export function nextDigestAt(preferences: Pick<DigestPreferences, 'frequency' | 'hourOfDay' | 'timezone'>, after: number): number | null {
  if (preferences.frequency === 'off') return null;
  const formatter = new Intl.DateTimeFormat('en-US', {
    timeZone: preferences.timezone,
    weekday: 'short',
    hour: 'numeric',
    minute: 'numeric',
    hourCycle: 'h23',
  });
  for (let at = Math.floor(after / quarterHourMs) * quarterHourMs + quarterHourMs; at <= after + searchHorizonMs; at += quarterHourMs) {
    const local = Object.fromEntries(formatter.formatToParts(new Date(at)).map((part) => [part.type, part.value]));
    if (Number(local.hour) !== preferences.hourOfDay || Number(local.minute) !== 0) continue;
    if (preferences.frequency === 'weekly' && local.weekday !== 'Mon') continue;
    return at;
  }
  throw new Error(`no ${preferences.hourOfDay}:00 in ${preferences.timezone} within eight days of ${new Date(after).toISOString()}`);
}

/** How far back a digest looks when it has never been sent. */
export function periodMs(frequency: DigestPreferences['frequency']): number {
  return (frequency === 'weekly' ? 7 : 1) * 24 * 3_600_000;
}
