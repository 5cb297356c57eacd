import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordedDir } from '@vrs/testing/upstreams/youtube/fixture-dirs';
import { playabilityError } from './playability';
import { hasRecorded, reportMissingShared } from '@vrs/testing/youtube-replay';

reportMissingShared('playability');

function recordedPlayer(relative: string): Record<string, unknown> {
  const text = readFileSync(path.join(recordedDir, relative), 'utf8');
  const parsed = JSON.parse(text) as { response?: { responseBody: string } };
  const body = parsed.response
    ? (JSON.parse(parsed.response.responseBody) as Record<string, unknown>)
    : (parsed as Record<string, unknown>);
  return (body.playerResponse as Record<string, unknown> | undefined) ?? body;
}

// Every recorded player error, whatever client recorded it (WEB 2024, ANDROID 2026, TV embed).
const cases: [string, string | undefined, string | undefined][] = [
  ['newpipe-extractor/errors/INVALID_ID_.web_player_fields_limited.json', 'VIDEO_UNAVAILABLE', 'not_found'],
  ['newpipe-extractor/errors/don-t-exist.web_player_fields_limited.json', 'VIDEO_UNAVAILABLE', 'not_found'],
  ['newpipe-extractor/errors/8VajtrESJzA.web_player_fields_limited.json', 'VIDEO_PRIVATE', 'private'],
  ['newpipe-extractor/errors/privatecontent.android_reel_item_watch.json', 'VIDEO_PRIVATE', 'private'],
  ['newpipe-extractor/errors/ayI2iBwGdxw.web_player_fields_limited.json', 'VIDEO_MEMBERS_ONLY', 'members_only'],
  ['newpipe-extractor/errors/paidcontent.android_reel_item_watch.json', 'VIDEO_MEMBERS_ONLY', 'members_only'],
  ['newpipe-extractor/errors/sMJ8bRN2dak.web_player_fields_limited.json', 'VIDEO_PAID', 'premium'],
  ['newpipe-extractor/errors/musicpremiumcontent.android_reel_item_watch.json', 'VIDEO_PAID', 'premium'],
  ['newpipe-extractor/errors/_PL2HJKxnOM.web_player_fields_limited.json', 'VIDEO_REGION_BLOCKED', 'region'],
  ['newpipe-extractor/errors/restricted.android_reel_item_watch.json', 'VIDEO_REGION_BLOCKED', 'region'],
  ['newpipe-extractor/errors/rwcfPqbAx-0.age_restricted.web_player_fields_limited.json', 'VIDEO_AGE_RESTRICTED', 'age'],
  ['newpipe-extractor/errors/rwcfPqbAx-0.age_restricted.tvhtml5_embedded_player.json', 'VIDEO_AGE_RESTRICTED', 'age'],
  ['newpipe-extractor/errors/invalidid.android_reel_item_watch.json', 'VIDEO_UNAVAILABLE', 'not_found'],
  ['newpipe-extractor/errors/nonexistent.android_reel_item_watch.json', 'VIDEO_UNAVAILABLE', 'not_found'],
  ['youtube-transcript-api/errors/youtube_age_restricted.innertube.json.static', 'VIDEO_AGE_RESTRICTED', 'age'],
  ['youtube-transcript-api/errors/youtube_request_blocked.innertube.json.static', 'UPSTREAM_UNAVAILABLE', 'bot_check'],
  ['youtube-transcript-api/errors/youtube_video_unavailable.innertube.json.static', 'VIDEO_UNAVAILABLE', 'not_found'],
  ['youtube-transcript-api/errors/youtube_unplayable.innertube.json.static', 'VIDEO_UNAVAILABLE', 'not_found'],
  ['newpipe-extractor/player/rCAS2eD-mcw.android_reel_item_watch.json', undefined, undefined],
  ['newpipe-extractor/live/X4VbdwhkE10.visionos_player.json', undefined, undefined],
];

describe.skipIf(!hasRecorded)('playability classification of every recorded player', () => {
  it('covers every recorded player error file', () => {
    const errorFiles = readdirSync(path.join(recordedDir, 'newpipe-extractor/errors')).filter((f) => !/browse/.test(f));
    const covered = cases.map(([file]) => path.basename(file));
    expect(errorFiles.filter((f) => !covered.includes(f))).toEqual([]);
  });

  it.each(cases)('%s → %s / %s', (file, code, reason) => {
    const error = playabilityError(recordedPlayer(file));
    if (!code) return expect(error).toBeUndefined();
    expect(error).toMatchObject({ code, reason });
  });

  it('treats an empty player body as not found, not as an empty success', () => {
    expect(playabilityError({})).toMatchObject({ code: 'VIDEO_UNAVAILABLE', reason: 'not_found' });
    expect(playabilityError(undefined)).toMatchObject({ code: 'VIDEO_UNAVAILABLE', reason: 'not_found' });
  });
});
