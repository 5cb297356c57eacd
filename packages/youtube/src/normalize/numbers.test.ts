import { describe, expect, it } from 'vitest';
import { parseClockDuration, parseCount } from './numbers';

describe('count and duration texts', () => {
  it.each([
    ['1,440,528 views', 1440528],
    ['9.8k', 9800],
    ['1.4m views', 1400000],
    ['218K subscribers', 218000],
    ['2.1k videos', 2100],
    ['No views', 0],
    ['21,051', 21051],
    ['3 months', 3],
    ['', null],
    ['views', null],
  ])('%s → %s', (text, expected) => expect(parseCount(text)).toBe(expected));

  it('reads clock durations and refuses other texts', () => {
    expect(parseClockDuration('59:45')).toBe(3585);
    expect(parseClockDuration('1:18:17')).toBe(4697);
    expect(parseClockDuration('LIVE')).toBeNull();
  });
});
