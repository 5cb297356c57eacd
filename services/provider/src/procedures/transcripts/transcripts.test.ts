import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appErrorDataOf } from '@vrs/kit';
import type { TRPCError } from '@trpc/server';
import { startProvider, type ProviderHarness } from '../../testing/provider-harness';

// The project's own fixture video (packages/testing/fixtures/youtube/video): always available.
const videoId = 'vrsFixture1';

describe('transcripts', () => {
  let h: ProviderHarness;
  beforeAll(async () => {
    h = await startProvider();
  });
  afterAll(() => h.close());
  beforeEach(() => h.fake.reset());

  it('saves every timing once and shows what `detail` asks for', async () => {
    const words = await h.call.transcripts.get({ videoId });
    expect(words.cached).toBe(false);
    expect(words.result.track).toMatchObject({ id: 'a.en', kind: 'asr', provenance: 'asr', isDefault: true });
    expect(words.result.segments?.[0]).toEqual({ startMs: 0, endMs: 2400, text: 'welcome to the fixture video' });
    expect(words.result.words?.slice(0, 2)).toEqual([
      { startMs: 0, endMs: 400, text: 'welcome', segment: 0 },
      { startMs: 400, endMs: 700, text: 'to', segment: 0 },
    ]);
    expect(words.result.meta).toMatchObject({ provider: 'youtube', partial: false, warnings: [] });

    const segments = await h.call.transcripts.get({ videoId, detail: 'segments' });
    expect(segments.cached).toBe(true);
    expect(segments.result.words).toBeUndefined();
    expect(segments.result.segments).toEqual(words.result.segments);
    const text = await h.call.transcripts.get({ videoId, detail: 'text' });
    expect(Object.keys(text.result).sort()).toEqual(['meta', 'text', 'track', 'videoId']);
    expect(text.result.meta.fetchedAt).toBe(words.result.meta.fetchedAt);
    expect(h.fake.hits().byEndpoint.timedtext).toBe(1);
  });

  it("says so in meta.warnings instead of inventing word timing, and reads a saved video's caption URLs", async () => {
    await h.call.videos.get({ videoId });
    const players = h.fake.hits().byEndpoint['reel/reel_item_watch'];
    const german = await h.call.transcripts.get({ videoId, lang: 'de' });
    expect(h.fake.hits().byEndpoint['reel/reel_item_watch']).toBe(players);
    expect(german.result.track).toMatchObject({ id: '.de', kind: 'manual', provenance: 'manual' });
    expect(german.result.words).toBeUndefined();
    expect(german.result.meta.warnings).toEqual(['The caption track has no word timing; words are omitted rather than estimated.']);
    expect(german.result.meta.partial).toBe(false);
    expect((await h.call.transcripts.get({ videoId, lang: 'de', detail: 'segments' })).result.meta.warnings).toEqual([]);
  });

  it('translates the default track only into a language no track has', async () => {
    const french = await h.call.transcripts.get({ videoId, lang: 'fr', detail: 'text' });
    expect(french.result.translatedTo).toEqual({ languageCode: 'fr', name: 'French' });
    expect(french.result.track).toMatchObject({ id: 'a.en', provenance: 'machine_translation' });
    expect(french.result.text).toMatch(/^bienvenue dans la vidéo de test/);
    expect(h.published.filter((e) => e.type === 'provider.transcript.fetched').at(-1)?.data).toMatchObject({
      videoId,
      lang: 'fr',
      trackId: 'a.en',
      languageCode: 'en',
      translatedTo: 'fr',
    });
  });

  it('fails with the typed error when no track or translation exists for the language', async () => {
    const error = await h.call.transcripts.get({ videoId, lang: 'tlh' }).catch((e: unknown) => appErrorDataOf(e as TRPCError));
    expect(error).toEqual({ appCode: 'TRANSCRIPT_UNAVAILABLE', details: { reason: 'no_captions', retryable: false } });
  });
});
