import { afterEach, describe, expect, it, vi } from 'vitest';
import { transcriptSchema } from '../shapes/transcript';
import { hasRecorded, hasSynthetic, reportMissingShared, useReplay, testClient } from '@vrs/testing/youtube-replay';

reportMissingShared('getTranscript');

describe.skipIf(!hasRecorded || !hasSynthetic)('getTranscript over the recorded players and the synthetic captions', () => {
  const fake = useReplay();
  afterEach(() => vi.useRealTimers());

  it.each(['srv3', 'json3'] as const)(
    'takes the default source track (manual English) in %s, without inventing word timing',
    async (format) => {
      const transcript = transcriptSchema.parse(await testClient(fake).getTranscript('rCAS2eD-mcw', { format }));
      expect(transcript.track).toEqual({
        id: '.en',
        name: 'English',
        languageCode: 'en',
        kind: 'manual',
        isTranslatable: true,
        isDefault: true,
        provenance: 'manual',
      });
      expect(transcript.translatedTo).toBeUndefined();
      expect(transcript.segments[0]).toEqual({ startMs: 0, endMs: 4200, text: 'Hello and welcome back to ABCs of Anaesthesia.' });
      expect(transcript.segments[1]?.startMs).toBe(4200);
      expect(transcript.words).toBeUndefined();
      expect(transcript.warnings.join(' ')).toMatch(/no word timing/);
      expect(transcript.text.startsWith('Hello and welcome back to ABCs of Anaesthesia. Today we look at')).toBe(true);
    },
  );

  it('uses the track of the wanted language when one exists, without translating', async () => {
    const transcript = await testClient(fake).getTranscript('rCAS2eD-mcw', { lang: 'de' });
    expect(transcript.track).toMatchObject({ id: '.de', languageCode: 'de', kind: 'manual', isDefault: false, provenance: 'manual' });
    expect(transcript.translatedTo).toBeUndefined();
    expect(transcript.segments[0]?.text).toBe('Hallo und willkommen zurück bei ABCs of Anaesthesia.');
  });

  it.each(['srv3', 'json3'] as const)('translates the default track only when no track has the language (%s)', async (format) => {
    const transcript = await testClient(fake).getTranscript('rCAS2eD-mcw', { lang: 'it', format });
    expect(transcript.track).toMatchObject({ id: '.en', provenance: 'machine_translation' });
    expect(transcript.translatedTo).toEqual({ languageCode: 'it', name: 'Italian' });
    expect(transcript.segments[0]).toEqual({ startMs: 0, endMs: 4200, text: 'Ciao e bentornati su ABCs of Anaesthesia.' });
  });

  it.each(['srv3', 'json3'] as const)('gives word timings from the auto-generated track (%s)', async (format) => {
    const transcript = await testClient(fake).getTranscript('rCAS2eD-mcw', { trackId: 'a.en', format });
    expect(transcript.track).toMatchObject({ id: 'a.en', kind: 'asr', provenance: 'asr' });
    expect(transcript.warnings).toEqual([]);
    expect(transcript.words?.slice(0, 3)).toEqual([
      { startMs: 0, endMs: 525, text: 'hello', segment: 0 },
      { startMs: 525, endMs: 1050, text: 'and', segment: 0 },
      { startMs: 1050, endMs: 1575, text: 'welcome', segment: 0 },
    ]);
    const firstSegmentWords = transcript.words?.filter((w) => w.segment === 0) ?? [];
    expect(firstSegmentWords.at(-1)).toMatchObject({ text: 'anaesthesia', startMs: 3675, endMs: 4200 });
    expect(transcript.segments[0]?.text).toBe('hello and welcome back to abcs of anaesthesia');
    expect(transcript.words?.every((w) => transcript.segments[w.segment] !== undefined)).toBe(true);
  });

  it('refuses a language that has neither a track nor a translation', async () => {
    await expect(testClient(fake).getTranscript('rCAS2eD-mcw', { lang: 'tlh' })).rejects.toMatchObject({
      code: 'TRANSCRIPT_UNAVAILABLE',
      reason: 'no_captions',
    });
  });

  it('reports a video without caption tracks as TRANSCRIPT_UNAVAILABLE', async () => {
    await expect(testClient(fake).getTranscript('dsMFmonKDD4')).rejects.toMatchObject({
      code: 'TRANSCRIPT_UNAVAILABLE',
      reason: 'no_captions',
    });
  });

  it('reports a live stream still broadcasting as VIDEO_LIVE_NOT_ENDED, not as a video without captions', async () => {
    await expect(testClient(fake).getTranscript('X4VbdwhkE10')).rejects.toMatchObject({
      code: 'VIDEO_LIVE_NOT_ENDED',
      reason: 'live_not_ended',
      transient: false,
    });
  });

  it('turns the recorded empty caption body (PO token required) into captions_withheld, not an empty transcript', async () => {
    fake.select('youtube/youtube-transcript-api.index.json#1');
    const error = await testClient(fake)
      .getTranscript('GJLlxj_dtq8')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', reason: 'captions_withheld' });
    expect(fake.hits().byEndpoint.timedtext).toBe(1);
  });

  it('turns an injected empty caption body into captions_withheld as well', async () => {
    fake.addFault({ match: { endpoint: 'timedtext' }, kind: 'empty' });
    await expect(testClient(fake).getTranscript('rCAS2eD-mcw')).rejects.toMatchObject({ reason: 'captions_withheld' });
  });

  it('surfaces the restriction of the player instead of a transcript', async () => {
    await expect(testClient(fake).getTranscript('8VajtrESJzA')).rejects.toMatchObject({ code: 'VIDEO_PRIVATE', reason: 'private' });
  });

  it('reuses the caption URLs of a stored video while they are valid', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-06-07T22:00:00Z')); // the recorded caption URLs expire on 2026-06-08
    const client = testClient(fake);
    const video = await client.getVideo('rCAS2eD-mcw');
    const before = fake.hits().byEndpoint['reel/reel_item_watch'] ?? 0;
    const transcript = await client.getTranscript('rCAS2eD-mcw', { video });
    expect(transcript.track.id).toBe('.en');
    expect(fake.hits().byEndpoint['reel/reel_item_watch']).toBe(before);
    vi.setSystemTime(new Date('2026-11-01T00:00:00Z'));
    await client.getTranscript('rCAS2eD-mcw', { video });
    expect(fake.hits().byEndpoint['reel/reel_item_watch']).toBe(before + 1);
  });
});
