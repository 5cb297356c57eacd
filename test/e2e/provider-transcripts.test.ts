import { describe, expect, inject, it } from 'vitest';
import { apiClient, type ApiResponse } from '@vrs/testing/api-client';
import { fakeYouTubeControl } from '@vrs/testing/upstreams/youtube/control-client';
import { hasRecorded, hasSynthetic, reportMissingShared } from '@vrs/testing/upstreams/youtube/fixture-dirs';

reportMissingShared('provider transcripts (e2e)');

const gatewayUrl = inject('gatewayUrl');
const youtube = fakeYouTubeControl(inject('youtubeUpstreamUrl'));
const transcriptPath = (id: string, query = '') => `/v1/providers/youtube/videos/${id}/transcript${query}`;
const charged = (response: ApiResponse) => Number(response.headers.get('x-credits-charged'));

function expectError(response: ApiResponse, status: number, code: string, details: Record<string, unknown>) {
  expect(response.status, response.text).toBe(status);
  expect(response.body.error).toMatchObject({ code, details });
}

describe("transcripts over the project's own fixture", () => {
  const api = apiClient(gatewayUrl, { 'x-demo-user': `provider-transcripts-${Date.now()}` });

  it('answers words by default: segments, and words pointing into them, where the track has word timing', async () => {
    // Refreshed, so this file sees a fresh fetch whatever other files asked for before.
    const response = await api('GET', transcriptPath('vrsFixture1', '?refresh=true'));
    expect(response.status, response.text).toBe(200);
    expect(charged(response)).toBe(3);
    const { body } = response;
    expect(body).toMatchObject({
      videoId: 'vrsFixture1',
      track: {
        id: 'a.en',
        name: 'English (auto-generated)',
        languageCode: 'en',
        kind: 'asr',
        isTranslatable: true,
        isDefault: true,
        provenance: 'asr',
      },
      text: 'welcome to the fixture video captions are timed word by word so tests can check srt and vtt',
      meta: { provider: 'youtube', partial: false, warnings: [] },
    });
    expect(body.translatedTo).toBeUndefined();
    expect(body.segments).toEqual([
      { startMs: 0, endMs: 2400, text: 'welcome to the fixture video' },
      { startMs: 2400, endMs: 5000, text: 'captions are timed word by word' },
      { startMs: 5000, endMs: 8000, text: 'so tests can check srt and vtt' },
    ]);
    expect(body.words).toHaveLength(18);
    expect(body.words.slice(4, 6)).toEqual([
      { startMs: 1600, endMs: 2400, text: 'video', segment: 0 },
      { startMs: 2400, endMs: 3000, text: 'captions', segment: 1 },
    ]);
    expect(body.words.every((word: { text: string; segment: number }) => body.segments[word.segment].text.includes(word.text))).toBe(true);
  });

  it('shows segments or text only when asked, from the same saved version at the cached price', async () => {
    const words = await api('GET', transcriptPath('vrsFixture1'));
    const segments = await api('GET', transcriptPath('vrsFixture1', '?detail=segments'));
    expect(charged(segments)).toBe(1);
    expect(segments.body.segments).toEqual(words.body.segments);
    expect(segments.body).not.toHaveProperty('words');
    const text = await api('GET', transcriptPath('vrsFixture1', '?detail=text'));
    expect(Object.keys(text.body).sort()).toEqual(['meta', 'text', 'track', 'videoId']);
    expect(text.body.meta.fetchedAt).toBe(words.body.meta.fetchedAt);
  });

  it('takes the track of the wanted language, saying in meta.warnings that it has no word timing', async () => {
    const german = await api('GET', transcriptPath('vrsFixture1', '?lang=de'));
    expect(german.status).toBe(200);
    expect(german.body.track).toMatchObject({ id: '.de', kind: 'manual', provenance: 'manual', isDefault: false });
    expect(german.body).not.toHaveProperty('words');
    expect(german.body).not.toHaveProperty('translatedTo');
    expect(german.body.meta).toMatchObject({
      partial: false,
      warnings: ['The caption track has no word timing; words are omitted rather than estimated.'],
    });
  });

  it('translates the default track only into a language no track has, and says so', async () => {
    const french = await api('GET', transcriptPath('vrsFixture1', '?lang=fr&detail=segments'));
    expect(french.body.translatedTo).toEqual({ languageCode: 'fr', name: 'French' });
    expect(french.body.track).toMatchObject({ id: 'a.en', provenance: 'machine_translation' });
    expect(french.body.segments[0]).toEqual({ startMs: 0, endMs: 2400, text: 'bienvenue dans la vidéo de test' });
    expectError(await api('GET', transcriptPath('vrsFixture1', '?lang=tlh')), 404, 'TRANSCRIPT_UNAVAILABLE', { reason: 'no_captions' });
  });

  it('answers format=srt and format=vtt with the file, metered like the JSON', async () => {
    const srt = await api('GET', transcriptPath('vrsFixture1', '?lang=de&format=srt'));
    expect(srt.status, srt.text).toBe(200);
    expect(srt.headers.get('content-type')).toBe('application/x-subrip; charset=utf-8');
    expect(srt.headers.get('content-disposition')).toBe('attachment; filename="vrsFixture1.de.srt"');
    expect(charged(srt)).toBe(1);
    expect(srt.headers.get('x-request-id')).toBeTruthy();
    expect(srt.headers.get('ratelimit-limit')).toBeTruthy();
    expect(srt.text).toBe(
      '1\n00:00:00,000 --> 00:00:02,400\nWillkommen zum Fixture-Video.\n\n' +
        '2\n00:00:02,400 --> 00:00:05,000\nDie Untertitel sind Wort für Wort getimt.\n\n' +
        '3\n00:00:05,000 --> 00:00:08,000\nSo können Tests SRT & VTT <prüfen>.\n',
    );
    const vtt = await api('GET', transcriptPath('vrsFixture1', '?lang=de&format=vtt'));
    expect(vtt.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    expect(vtt.text.startsWith('WEBVTT\n\n00:00:00.000 --> 00:00:02.400\nWillkommen zum Fixture-Video.\n')).toBe(true);
    expect(vtt.text).toContain('So können Tests SRT &amp; VTT &lt;prüfen&gt;.');
    const translated = await api('GET', transcriptPath('vrsFixture1', '?lang=fr&format=vtt'));
    expect(translated.headers.get('content-disposition')).toBe('attachment; filename="vrsFixture1.fr.vtt"');
  });

  it('answers file requests that fail in the error envelope, refunded', async () => {
    const missing = await api('GET', transcriptPath('vrsFixture1', '?lang=tlh&format=srt'));
    expectError(missing, 404, 'TRANSCRIPT_UNAVAILABLE', { reason: 'no_captions' });
    expect(missing.headers.get('content-type')).toMatch(/application\/json/);
    expect(missing.headers.get('x-credits-charged')).toBeNull();
  });

  it('turns an empty caption body (YouTube withholding it) into 503 captions_withheld, never an empty transcript', async () => {
    await youtube.addFault({ match: { endpoint: 'timedtext', v: 'vrsFixture1', lang: 'de' }, kind: 'empty', times: 1 });
    const withheld = await api('GET', transcriptPath('vrsFixture1', '?lang=de&refresh=true'));
    expectError(withheld, 503, 'UPSTREAM_UNAVAILABLE', { reason: 'captions_withheld' });
  });
});

describe.skipIf(!hasRecorded || !hasSynthetic)('transcripts over the recorded player and the authored captions', () => {
  const api = apiClient(gatewayUrl, { 'x-demo-user': `provider-transcripts-recorded-${Date.now()}` });

  it('takes the default source track, manual English, without inventing word timing', async () => {
    const response = await api('GET', transcriptPath('rCAS2eD-mcw'));
    expect(response.status, response.text).toBe(200);
    expect(response.body.track).toEqual({
      id: '.en',
      name: 'English',
      languageCode: 'en',
      kind: 'manual',
      isTranslatable: true,
      isDefault: true,
      provenance: 'manual',
    });
    expect(response.body.segments[0]).toEqual({ startMs: 0, endMs: 4200, text: 'Hello and welcome back to ABCs of Anaesthesia.' });
    expect(response.body).not.toHaveProperty('words');
    expect(response.body.meta.warnings).toEqual(['The caption track has no word timing; words are omitted rather than estimated.']);
  });

  it("uses the German track for lang=de and YouTube's translation for lang=it", async () => {
    const german = await api('GET', transcriptPath('rCAS2eD-mcw', '?lang=de&detail=segments'));
    expect(german.body.track).toMatchObject({ id: '.de', provenance: 'manual' });
    expect(german.body.segments[0].text).toBe('Hallo und willkommen zurück bei ABCs of Anaesthesia.');
    const italian = await api('GET', transcriptPath('rCAS2eD-mcw', '?lang=it&detail=segments'));
    expect(italian.body).toMatchObject({
      translatedTo: { languageCode: 'it', name: 'Italian' },
      track: { id: '.en', provenance: 'machine_translation' },
    });
    expect(italian.body.segments[0]).toEqual({ startMs: 0, endMs: 4200, text: 'Ciao e bentornati su ABCs of Anaesthesia.' });
  });

  it('answers 404 TRANSCRIPT_UNAVAILABLE for a video without captions, 409 VIDEO_LIVE_NOT_ENDED for a live stream', async () => {
    expectError(await api('GET', transcriptPath('dsMFmonKDD4')), 404, 'TRANSCRIPT_UNAVAILABLE', { reason: 'no_captions' });
    expectError(await api('GET', transcriptPath('X4VbdwhkE10')), 409, 'VIDEO_LIVE_NOT_ENDED', { reason: 'live_not_ended' });
    expectError(await api('GET', transcriptPath('vrsUpcoming1')), 409, 'VIDEO_LIVE_NOT_ENDED', {
      reason: 'live_not_ended',
      platformReason: 'This live event will begin in 3 days.',
    });
  });

  it('answers the recorded PO-token case (caption URL answering an empty body) with 503 captions_withheld', async () => {
    const poToken = 'youtube/youtube-transcript-api.index.json#1';
    await youtube.select(poToken);
    try {
      expectError(await api('GET', transcriptPath('GJLlxj_dtq8')), 503, 'UPSTREAM_UNAVAILABLE', { reason: 'captions_withheld' });
    } finally {
      await youtube.unselect(poToken);
    }
  });

  it("surfaces the player's restriction instead of a transcript", async () => {
    expectError(await api('GET', transcriptPath('8VajtrESJzA')), 403, 'VIDEO_PRIVATE', { reason: 'private' });
  });
});
