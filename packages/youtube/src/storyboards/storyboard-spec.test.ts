import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasRecorded, recordedDir, reportMissingShared } from '@vrs/testing/upstreams/youtube/fixture-dirs';
import { parseStoryboardSpec, storyboardFrameMs, storyboardSheetUrl, storyboardSpecOf, StoryboardSpecError } from './storyboard-spec';

reportMissingShared('storyboard spec');

/** The player response inside a NewPipe recording (ANDROID wraps it in `playerResponse`). */
function recordedPlayer(file: string): Record<string, unknown> {
  const exchange = JSON.parse(readFileSync(path.join(recordedDir, 'newpipe-extractor/player', file), 'utf8')) as {
    response: { responseBody: string };
  };
  const body = JSON.parse(exchange.response.responseBody) as Record<string, unknown>;
  return (body.playerResponse as Record<string, unknown> | undefined) ?? body;
}

describe.skipIf(!hasRecorded)('storyboard specs of recorded player responses', () => {
  const android = recordedPlayer('rCAS2eD-mcw.android_reel_item_watch.json');
  const visionos = recordedPlayer('rCAS2eD-mcw.visionos_player.json');

  it('parses every level of the recorded ANDROID spec with its grid, interval and sheet count', () => {
    const spec = parseStoryboardSpec(storyboardSpecOf(android)!);
    expect(spec.urlTemplate).toMatch(/^https:\/\/i\.ytimg\.com\/sb\/rCAS2eD-mcw\/storyboard3_L\$L\/\$N\.jpg\?sqp=/);
    expect(spec.levels.map(({ sigh: _sigh, ...level }) => level)).toEqual([
      { level: 0, width: 48, height: 27, frameCount: 100, columns: 10, rows: 10, intervalMs: 0, name: 'default', sheetCount: 1 },
      { level: 1, width: 80, height: 45, frameCount: 70, columns: 10, rows: 10, intervalMs: 5000, name: 'M$M', sheetCount: 1 },
      { level: 2, width: 160, height: 90, frameCount: 70, columns: 5, rows: 5, intervalMs: 5000, name: 'M$M', sheetCount: 3 },
    ]);
    expect(spec.levels.every((level) => level.sigh.startsWith('rs$'))).toBe(true);
  });

  it('builds sheet URLs the way the player does: $L, $N from the name, sigh appended, sqp untouched', () => {
    const raw = storyboardSpecOf(android)!;
    const spec = parseStoryboardSpec(raw);
    const sqp = /sqp=([^|]+)/.exec(raw)![1];
    const url = storyboardSheetUrl(spec, spec.levels[2]!, 2);
    expect(url).toBe(`https://i.ytimg.com/sb/rCAS2eD-mcw/storyboard3_L2/M2.jpg?sqp=${sqp}&sigh=${spec.levels[2]!.sigh}`);
    expect(storyboardSheetUrl(spec, spec.levels[0]!, 0)).toContain('/storyboard3_L0/default.jpg?');
  });

  it('parses the visionOS client spec too (another sqp, same levels)', () => {
    const spec = parseStoryboardSpec(storyboardSpecOf(visionos)!);
    expect(spec.levels.map((level) => [level.width, level.height, level.sheetCount])).toEqual([
      [48, 27, 1],
      [80, 45, 1],
      [160, 90, 3],
    ]);
  });

  it('places frames by the interval, or spreads level 0 evenly over the duration', () => {
    const spec = parseStoryboardSpec(storyboardSpecOf(android)!);
    expect(storyboardFrameMs(spec.levels[2]!, 26, 343_000)).toBe(130_000);
    expect(storyboardFrameMs(spec.levels[0]!, 50, 343_000)).toBe(171_500);
  });

  it('finds no spec in a player response without storyboards', () => {
    expect(storyboardSpecOf(recordedPlayer('rCAS2eD-mcw.web_player_fields_limited.json'))).toBeUndefined();
  });
});

describe('malformed storyboard specs', () => {
  it.each([
    ['', /template/],
    ['https://i.ytimg.com/sb/x/L$L.jpg|48#27#100#10#10#0#default#rs', /\$N/],
    ['https://i.ytimg.com/sb/x/$N.jpg', /no level/],
    ['https://i.ytimg.com/sb/x/$N.jpg|48#27#100#10', /4 fields/],
    ['https://i.ytimg.com/sb/x/$N.jpg|48#0#100#10#10#0#default#rs', /height/],
    ['https://i.ytimg.com/sb/x/$N.jpg|48#27#many#10#10#0#default#rs', /frame count/],
    ['https://i.ytimg.com/sb/x/$N.jpg|48#27#100#10#10#-5#default#rs', /interval/],
  ])('refuses %j', (spec, reason) => {
    expect(() => parseStoryboardSpec(spec)).toThrow(StoryboardSpecError);
    expect(() => parseStoryboardSpec(spec)).toThrow(reason);
  });
});
