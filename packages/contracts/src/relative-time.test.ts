import { describe, expect, it } from 'vitest';
import { hoursFromRelativeText } from './relative-time';

describe('hoursFromRelativeText', () => {
  it("reads YouTube's display ages, and says null when there is none", () => {
    expect(['5 hours ago', 'Streamed 2 weeks ago', '1 day ago', '1 year ago', '30 seconds ago'].map(hoursFromRelativeText)).toEqual([
      5,
      336,
      24,
      8766,
      30 / 3600,
    ]);
    expect(hoursFromRelativeText('Premieres soon')).toBeNull();
    expect(hoursFromRelativeText('yesterday')).toBeNull();
  });
});
