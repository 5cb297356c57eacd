const unitHours: Record<string, number> = { second: 1 / 3600, minute: 1 / 60, hour: 1, day: 24, week: 168, month: 730, year: 8766 };

/**
 * Age in hours from YouTube's display text ("3 days ago", "Streamed 2 weeks ago"); null when the
 * text carries no age. Search cards and a channel's Videos tab give no exact date, so this coarse
 * age is all that is known of a video before it is read in full.
 */
export function hoursFromRelativeText(text: string): number | null {
  const match = /(\d+)\s+(second|minute|hour|day|week|month|year)s?\b/i.exec(text);
  const unit = match?.[2]?.toLowerCase();
  const hours = unit === undefined ? undefined : unitHours[unit];
  return match && hours !== undefined ? Number(match[1]) * hours : null;
}
