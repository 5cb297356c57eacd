import { describe, expect, it } from 'vitest';
import { toSrt, toVtt } from './subtitles';

const segments = [
  { startMs: 0, endMs: 2_400, text: 'Willkommen zum Fixture-Video.' },
  { startMs: 3_725_005, endMs: 3_727_000, text: 'So können Tests SRT & VTT <prüfen> --> fertig.' },
];

describe('subtitle files', () => {
  it('writes SubRip: numbered cues, comma milliseconds, text as it is', () => {
    expect(toSrt(segments)).toBe(
      '1\n00:00:00,000 --> 00:00:02,400\nWillkommen zum Fixture-Video.\n\n' +
        '2\n01:02:05,005 --> 01:02:07,000\nSo können Tests SRT & VTT <prüfen> --> fertig.\n',
    );
  });

  it('writes WebVTT: header, dot milliseconds, markup characters escaped', () => {
    expect(toVtt(segments)).toBe(
      'WEBVTT\n\n00:00:00.000 --> 00:00:02.400\nWillkommen zum Fixture-Video.\n\n' +
        '01:02:05.005 --> 01:02:07.000\nSo können Tests SRT &amp; VTT &lt;prüfen&gt; --&gt; fertig.\n',
    );
  });

  it('writes an empty but valid file for no segments', () => {
    expect(toSrt([])).toBe('');
    expect(toVtt([])).toBe('WEBVTT\n\n');
  });
});
