const multipliers: Record<string, number> = { k: 1e3, m: 1e6, b: 1e9 };

/**
 * Reads the counts YouTube prints: "1,440,528 views", "9.8K", "1.4m views", "218K subscribers",
 * "No views". Abbreviated values come back rounded as shown. Null when no number is present.
 */
export function parseCount(text: string | undefined | null): number | null {
  if (!text) return null;
  if (/^\s*no\b/i.test(text)) return 0;
  const match = /(\d[\d,.\u00a0 ]*)\s*([kmb])?\b/i.exec(text);
  if (!match) return null;
  const [, number = '', suffix] = match;
  const digits = number.replace(/[,\u00a0 ]/g, '');
  const multiplier = suffix && multipliers[suffix.toLowerCase()];
  if (multiplier) return Math.round(Number.parseFloat(digits) * multiplier);
  const value = Number.parseInt(digits.replace(/\./g, ''), 10);
  return Number.isNaN(value) ? null : value;
}

/** "1:18:17" → 4697; null for texts that are not a clock duration ("LIVE", "SHORTS"). */
export function parseClockDuration(text: string | undefined | null): number | null {
  if (!text || !/^\d+(:\d{1,2}){1,2}$/.test(text.trim())) return null;
  return text
    .trim()
    .split(':')
    .reduce((total, part) => total * 60 + Number(part), 0);
}

export function toInt(value: unknown): number | null {
  const number = typeof value === 'number' ? value : Number.parseInt(String(value ?? ''), 10);
  return Number.isFinite(number) ? Math.trunc(number) : null;
}
