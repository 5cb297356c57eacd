import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hasRecorded, hasSynthetic, projectDir, recordedDir, reportMissingShared, syntheticDir } from './fixture-dirs';
import { startFakeYouTube, type FakeYouTube } from './server';

reportMissingShared('fake-youtube matching');

const web = (body: Record<string, unknown>) => ({ context: { client: { clientName: 'WEB', clientVersion: '2.20260101.00.00' } }, ...body });
const android = (body: Record<string, unknown>) => ({ context: { client: { clientName: 'ANDROID', clientVersion: '21.03.36' } }, ...body });

describe.skipIf(!hasRecorded || !hasSynthetic)('fake YouTube request matching', () => {
  let fake: FakeYouTube;
  const logged: string[] = [];

  beforeAll(async () => {
    fake = await startFakeYouTube({ replayDirs: [recordedDir, syntheticDir, projectDir], log: (line) => logged.push(line) });
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${fake.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it('answers with the most recently recorded of equal recordings', async () => {
    const res = await post('/youtubei/v1/next?prettyPrint=false', web({ videoId: 'xaQJbozY_Is' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-replay-recording')).toBe('youtube-recorded/newpipe-extractor/comments/xaQJbozY_Is.1_next_video.json');
    expect(Object.keys((await res.json()) as object)).toContain('contents');
  });

  it('lets a test select an older recording, until reset', async () => {
    fake.select('youtube-recorded/newpipe-extractor/comments/xaQJbozY_Is.2024-11.1_next_video.json');
    const selected = await post('/youtubei/v1/next', web({ videoId: 'xaQJbozY_Is' }));
    expect(selected.headers.get('x-replay-recording')).toMatch(/2024-11\.1_next_video/);
    fake.reset();
    const again = await post('/youtubei/v1/next', web({ videoId: 'xaQJbozY_Is' }));
    expect(again.headers.get('x-replay-recording')).toMatch(/xaQJbozY_Is\.1_next_video/);
  });

  it('selects and unselects over HTTP too, and refuses unknown ids', async () => {
    const id = 'youtube-recorded/newpipe-extractor/comments/xaQJbozY_Is.2024-11.1_next_video.json';
    expect((await post('/__control/select', { id })).status).toBe(200);
    expect((await post('/youtubei/v1/next', web({ videoId: 'xaQJbozY_Is' }))).headers.get('x-replay-recording')).toBe(id);
    expect((await post('/__control/unselect', { id })).status).toBe(200);
    const again = await post('/youtubei/v1/next', web({ videoId: 'xaQJbozY_Is' }));
    expect(again.headers.get('x-replay-recording')).toMatch(/xaQJbozY_Is\.1_next_video/);
    expect((await post('/__control/select', { id: 'nope.json' })).status).toBe(404);
    expect((await post('/__control/unselect', { id: 'nope.json' })).status).toBe(404);
  });

  it('discriminates by video id, continuation token and browse params', async () => {
    const bem = await post('/youtubei/v1/next', web({ videoId: 'bem4adjGKjE' }));
    expect(bem.headers.get('x-replay-recording')).toMatch(/bem4adjGKjE\.1_next_video/);
    const page = await post(
      '/youtubei/v1/next',
      web({ continuation: 'Eg0SC2JlbTRhZGpHS2pFGAYyJSIRIgtiZW00YWRqR0tqRTAAeAJCEGNvbW1lbnRzLXNlY3Rpb24=' }),
    );
    expect(page.headers.get('x-replay-recording')).toMatch(/bem4adjGKjE\.2_next_comments_top_page1/);
    const tab = await post('/youtubei/v1/browse', web({ browseId: 'UC2DjFE7Xf11URZqWBigcVOQ', params: 'EglwbGF5bGlzdHPyBgQKAkIA' }));
    expect(tab.headers.get('x-replay-recording')).toMatch(/UC2DjFE7Xf11URZqWBigcVOQ\.2_browse_playlists_tab/);
    const otherTab = await post(
      '/youtubei/v1/browse',
      web({ browseId: 'UC2DjFE7Xf11URZqWBigcVOQ', params: 'EgZzaG9ydHPyBgUKA5oBAA%3D%3D' }),
    );
    expect(otherTab.status).toBe(404);
  });

  it('discriminates by client name, from the body or the X-YouTube-Client-Name header', async () => {
    const body = { playerRequest: { videoId: 'rCAS2eD-mcw' }, disablePlayerResponse: false };
    const path = '/youtubei/v1/reel/reel_item_watch?$fields=playerResponse';
    expect((await post(path, android(body))).status).toBe(200);
    expect((await post(path, web(body))).status).toBe(404);
    expect((await post(path, body, { 'X-YouTube-Client-Name': '3' })).status).toBe(200);
  });

  it('discriminates by $fields mask', async () => {
    const body = web({ videoId: 'rCAS2eD-mcw' });
    const masked = await post('/youtubei/v1/player?$fields=microformat,videoDetails.thumbnail.thumbnails,videoDetails.videoId', body);
    expect(masked.status).toBe(200);
    expect((await post('/youtubei/v1/player', body)).status).toBe(404);
  });

  it('projects an unmasked recording through a mask no recording has', async () => {
    const headerRequest = web({ browseId: 'VLPLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr', params: 'wgYCCAA%3D' });
    const exact = await post('/youtubei/v1/browse?$fields=sidebar,header,microformat,alerts', headerRequest);
    // The 2026 recording was made with exactly this mask: it wins over any projection...
    expect(exact.headers.get('x-replay-recording')).toMatch(/1_browse_header_fields_limited/);
    // ...unless a test selects the unmasked 2024 recording of the same request.
    fake.select('youtube-recorded/newpipe-extractor/playlist/PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr.2024-11.1_browse_full.json');
    const selected = await post('/youtubei/v1/browse?$fields=sidebar,header,microformat,alerts', headerRequest);
    expect(selected.headers.get('x-replay-recording')).toMatch(/2024-11\.1_browse_full/);
    expect(Object.keys((await selected.json()) as object).sort()).toEqual(['header', 'microformat', 'sidebar']);
    const projected = await post(
      '/youtubei/v1/browse?$fields=header,microformat',
      web({ browseId: 'VLPLXJg25X-OulsVsnvZ7RVtSDW-id9_RzAO', params: 'wgYCCAA=' }),
    );
    expect(projected.status).toBe(200);
    expect(projected.headers.get('x-replay-projected-fields')).toBe('header,microformat');
    expect(Object.keys((await projected.json()) as object).sort()).toEqual(['header', 'microformat']);
  });

  it('matches caption requests on v, lang, kind, tlang and fmt, not on the signature', async () => {
    const base = '/api/timedtext?v=rCAS2eD-mcw&ei=whatever&signature=ABC&caps=asr';
    const de = await fetch(`${fake.url}${base}&lang=de&fmt=json3`);
    expect(de.headers.get('x-replay-recording')).toMatch(/rCAS2eD-mcw\.de\.json3/);
    const asr = await fetch(`${fake.url}${base}&kind=asr&lang=en&fmt=srv3`);
    expect(asr.headers.get('x-replay-recording')).toMatch(/rCAS2eD-mcw\.en-asr\.srv3/);
    const it = await fetch(`${fake.url}${base}&lang=en&tlang=it&fmt=srv3`);
    expect(it.headers.get('x-replay-recording')).toMatch(/rCAS2eD-mcw\.en-to-it\.srv3/);
    expect((await fetch(`${fake.url}${base}&lang=fr&fmt=srv3`)).status).toBe(404);
  });

  it('answers unmatched requests with a 404 explaining what was asked, and logs them', async () => {
    logged.length = 0;
    const res = await post('/youtubei/v1/search', web({ query: 'nobody recorded this' }));
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: { asked: unknown } };
    expect(body.error.asked).toEqual({ endpoint: 'search', clientName: 'WEB', fields: null, keys: { query: 'nobody recorded this' } });
    expect(logged.join('\n')).toContain('nobody recorded this');
    expect(fake.hits().unmatched).toBe(1);
    expect(fake.unmatched()).toHaveLength(1);
  });

  it('serves the indexed youtube-transcript-api bodies as reel_item_watch player responses', async () => {
    const res = await post(
      '/youtubei/v1/reel/reel_item_watch?$fields=playerResponse',
      android({ playerRequest: { videoId: 'dsMFmonKDD4' } }),
    );
    const body = (await res.json()) as { playerResponse: { videoDetails: { videoId: string } } };
    expect(body.playerResponse.videoDetails.videoId).toBe('dsMFmonKDD4');
  });
});
