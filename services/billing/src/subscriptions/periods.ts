/*
 * Billing periods (ADR 0032): monthly, in UTC, anchored on the moment the account was opened. The
 * n-th period starts n months after the anchor, on the anchor's day of month and time of day; a
 * day the month lacks is clamped to its last day. Each start is computed from the anchor, not from
 * the previous start, so an account opened on the 31st renews on Feb 28 and then on Mar 31 again.
 */

/** The anchor moved `months` months on, clamped to the end of a shorter month (milliseconds). */
export function addMonthsClamped(anchor: number, months: number): number {
  const day = new Date(anchor).getUTCDate();
  // From the 1st (the anchor's time of day kept), so moving the month never overflows into the next.
  const target = new Date(anchor);
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  // Day 0 of the next month is the last day of this one.
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  return target.setUTCDate(Math.min(day, lastDay));
}

/** The period of an account anchored at `anchor` that contains `now` (the first one if `now` precedes the anchor). */
export function periodContaining(anchor: number, now: number): { start: number; end: number } {
  const a = new Date(anchor);
  const n = new Date(now);
  let months = Math.max(0, (n.getUTCFullYear() - a.getUTCFullYear()) * 12 + n.getUTCMonth() - a.getUTCMonth());
  // The month difference is right or one too many (the anchor's day or time not reached yet this month).
  if (months > 0 && addMonthsClamped(anchor, months) > now) months--;
  return { start: addMonthsClamped(anchor, months), end: addMonthsClamped(anchor, months + 1) };
}
