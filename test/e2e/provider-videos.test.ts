import { describe, expect, inject, it } from 'vitest';
import { apiClient, type ApiResponse } from '@vrs/testing/api-client';
import { fakeYouTubeControl } from '@vrs/testing/upstreams/youtube/control-client';
import { hasRecorded, reportMissingShared } from '@vrs/testing/upstreams/youtube/fixture-dirs';

reportMissingShared('provider videos (e2e)');

const gatewayUrl = inject('gatewayUrl');
const youtube = fakeYouTubeControl(inject('youtubeUpstreamUrl'));
const videoPath = (id: string, query = '') => `/v1/providers/youtube/videos/${id}${query}`;

const charged = (response: ApiResponse) => Number(response.headers.get('x-credits-charged'));

function expectError(response: ApiResponse, status: number, code: string, details: Record<string, unknown>) {
  expect(response.status, response.text).toBe(status);
  expect(response.body.error).toMatchObject({ code, details });
}

describe("video metadata over the project's own fixture", () => {
  const api = apiClient(gatewayUrl, { 'x-demo-user': `provider-videos-${Date.now()}` });

  it('normalizes the video, with meta naming the provider, the version and that nothing is missing', async () => {
    const response = await api('GET', videoPath('vrsFixture1'));
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({
      id: 'vrsFixture1',
      title: 'Fixture video: captions timed word by word',
      channel: { id: 'UCvrsFixtureChannel000001', name: 'VRS Fixtures', url: 'https://www.youtube.com/@vrsfixtures' },
      durationSeconds: 8,
      publishDate: '2026-01-15T08:00:00-08:00',
      viewCount: 4321,
      likeCount: 56,
      commentCount: 3,
      keywords: ['fixture', 'captions', 'transcript'],
      hashtags: ['#fixtures', '#captions'],
      isLive: false,
      isUpcoming: false,
      hasCaptions: true,
      captionTracks: [
        { id: 'a.en', name: 'English (auto-generated)', languageCode: 'en', kind: 'asr', isTranslatable: true, isDefault: true },
        { id: '.de', name: 'German', languageCode: 'de', kind: 'manual', isTranslatable: true, isDefault: false },
      ],
      meta: { provider: 'youtube', source: 'video-research-service', partial: false, warnings: [] },
    });
    expect(response.body.thumbnails[0]).toEqual({ url: 'https://i.ytimg.com/vi/vrsFixture1/hqdefault.jpg', width: 480, height: 360 });
    expect(response.body).not.toHaveProperty('internal');
  });

  // A failed refresh is shown on a stack of its own (provider-resilience): its injected failure
  // would hit other files' requests for this video here.
  it('reuses the saved version at the cached price, and saves a new one on refresh', async () => {
    const first = await api('GET', videoPath('vrsFixture1', '?refresh=true'));
    expect(first.status).toBe(200);
    expect(charged(first)).toBe(2);
    const reused = await api('GET', videoPath('vrsFixture1'));
    expect(charged(reused)).toBe(1);
    expect(Number(reused.headers.get('x-credits-remaining'))).toBe(Number(first.headers.get('x-credits-remaining')) - 1);
    expect(reused.body.meta.fetchedAt).toBe(first.body.meta.fetchedAt);

    const refreshed = await api('GET', videoPath('vrsFixture1', '?refresh=true'));
    expect(charged(refreshed)).toBe(2);
    expect(refreshed.body.meta.fetchedAt > first.body.meta.fetchedAt).toBe(true);
    expect((await api('GET', videoPath('vrsFixture1'))).body.meta.fetchedAt).toBe(refreshed.body.meta.fetchedAt);
  });

  it("maps YouTube's HTTP failures to 503 UPSTREAM_UNAVAILABLE with the case in details.reason", async () => {
    // Ids no recording has: the injected answer is all YouTube says about them.
    // On the player: the WEB player and /next asked beside it are optional reads.
    await youtube.addFault({ match: { endpoint: 'reel/reel_item_watch', videoId: 'rateLimit01' }, kind: 'status', status: 429, times: 2 });
    expectError(await api('GET', videoPath('rateLimit01')), 503, 'UPSTREAM_UNAVAILABLE', { reason: 'rate_limited', retryable: true });
    await youtube.addFault({ match: { endpoint: 'reel/reel_item_watch', videoId: 'serverDown1' }, kind: 'status', status: 500, times: 2 });
    expectError(await api('GET', videoPath('serverDown1')), 503, 'UPSTREAM_UNAVAILABLE', { reason: 'upstream_error', retryable: true });
  });
});

describe.skipIf(!hasRecorded)('video metadata over the recordings', () => {
  const api = apiClient(gatewayUrl, { 'x-demo-user': `provider-videos-recorded-${Date.now()}` });

  it('reads a recorded video from player, microformat and /next', async () => {
    const response = await api('GET', videoPath('rCAS2eD-mcw'));
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({
      id: 'rCAS2eD-mcw',
      channel: { id: 'UCs1fy2n5Ey0c9VZRBL7UCsg', name: 'ABCs of Anaesthesia' },
      durationSeconds: 343,
      publishDate: '2022-07-03T04:00:25-07:00',
      viewCount: 81077,
      likeCount: 1000,
      commentCount: 18,
      hasCaptions: true,
      meta: { partial: false, warnings: [] },
    });
    expect(response.body.captionTracks).toHaveLength(13);
    expect(response.body.captionTracks.find((t: { isDefault: boolean }) => t.isDefault)).toMatchObject({ id: '.en', kind: 'manual' });
  });

  it('reports a live stream as live, and what it could not get as partial', async () => {
    expect((await api('GET', videoPath('X4VbdwhkE10'))).body).toMatchObject({ isLive: true, channel: { name: 'Lofi Girl' } });
    const partial = await api('GET', videoPath('dsMFmonKDD4'));
    expect(partial.status).toBe(200);
    expect(partial.body).toMatchObject({ hasCaptions: false, publishDate: null, meta: { partial: true } });
    expect(partial.body.meta.warnings.join('\n')).toMatch(/publish date and like count \(WEB player\) unavailable/);
  });

  it.each([
    ['INVALID_ID_', 404, 'VIDEO_UNAVAILABLE', 'not_found', /empty player response/],
    ['don-t-exist', 404, 'VIDEO_UNAVAILABLE', 'not_found', /empty player response/],
    ['8VajtrESJzA', 403, 'VIDEO_PRIVATE', 'private', /This video is private/],
    ['Njp5uhTorCo', 403, 'VIDEO_AGE_RESTRICTED', 'age', /inappropriate/],
    ['ayI2iBwGdxw', 403, 'VIDEO_MEMBERS_ONLY', 'members_only', /members/],
    ['sMJ8bRN2dak', 403, 'VIDEO_PAID', 'premium', /Music Premium/],
    ['_PL2HJKxnOM', 451, 'VIDEO_REGION_BLOCKED', 'region', /country/],
    ['vrsRental001', 403, 'VIDEO_PAID', 'paid', /requires payment/],
    ['vrsUnnamed01', 403, 'VIDEO_RESTRICTED', 'restricted', /not available/],
  ] as const)('answers the recorded player of %s with %i %s / %s, refunded', async (id, status, code, reason, platformReason) => {
    const response = await api('GET', videoPath(id));
    expectError(response, status, code, { reason, retryable: false });
    expect(response.body.error.details.platformReason ?? response.body.error.message).toMatch(platformReason);
    expect(response.headers.get('x-credits-charged')).toBeNull();
  });

  it('answers the age-restricted rwcfPqbAx-0 with 403 VIDEO_AGE_RESTRICTED after the player-client chain, metadata and transcript alike, free', async () => {
    const before = (await api('GET', '/v1/billing')).body.credits.balance;
    for (const path of [videoPath('rwcfPqbAx-0'), `${videoPath('rwcfPqbAx-0')}/transcript`]) {
      const response = await api('GET', path);
      expectError(response, 403, 'VIDEO_AGE_RESTRICTED', { reason: 'age', retryable: false });
      expect(response.body.error.details.platformReason).toMatch(/Sign in to confirm your age/);
      expect(response.headers.get('x-credits-charged') ?? '0').toBe('0');
    }
    expect((await api('GET', '/v1/billing')).body.credits.balance).toBe(before);
  });

  it("answers the recorded bot check with 503 UPSTREAM_UNAVAILABLE / bot_check and YouTube's words", async () => {
    const botCheck = 'youtube/youtube-transcript-api.index.json#5';
    await youtube.select(botCheck);
    try {
      const response = await api('GET', videoPath('Njp5uhTorCo'));
      expectError(response, 503, 'UPSTREAM_UNAVAILABLE', { reason: 'bot_check', retryable: true });
      expect(response.body.error.details.platformReason).toMatch(/not a bot/);
    } finally {
      await youtube.unselect(botCheck);
    }
  });
});

describe('video search orders over the authored cold brew topic', () => {
  const api = apiClient(gatewayUrl, { 'x-demo-user': `provider-search-${Date.now()}` });
  const searchPath = (query: string) => `/v1/providers/youtube/search?q=cold%20brew${query}`;

  it('sort=upload_date answers the upload-date page (newest first), sort=view_count the most viewed', async () => {
    const relevance = await api('GET', searchPath(''));
    expect(relevance.status, relevance.text).toBe(200);
    expect(relevance.body.videos[0].id).toBe('coldBrew001');
    const uploadDate = await api('GET', searchPath('&sort=upload_date'));
    expect(uploadDate.status, uploadDate.text).toBe(200);
    expect(charged(uploadDate)).toBe(2);
    expect(uploadDate.body.videos.slice(0, 3).map((video: { id: string }) => video.id)).toEqual([
      'coldBrew003',
      'coldBrew017',
      'coldBrew001',
    ]);
    expect(uploadDate.body.meta).toMatchObject({ provider: 'youtube', partial: false });
    const viewCount = await api('GET', searchPath('&sort=view_count'));
    expect(viewCount.status, viewCount.text).toBe(200);
    expect(viewCount.body.videos[0]).toMatchObject({ id: 'coldBrew010', viewCount: 500_000 });
  });

  it('an unknown sort is 422 VALIDATION_FAILED, not charged; the OpenAPI document lists the orders', async () => {
    const response = await api('GET', searchPath('&sort=bogus'));
    expect(response.status, response.text).toBe(422);
    expect(response.body.error.code).toBe('VALIDATION_FAILED');
    expect(response.headers.get('x-credits-charged')).toBeNull();
    const { body: doc } = await api('GET', '/v1/openapi.json');
    const sort = doc.paths['/providers/{provider}/search'].get.parameters.find((p: { name: string }) => p.name === 'sort');
    expect(sort).toMatchObject({ in: 'query', schema: { enum: ['relevance', 'upload_date', 'view_count'], default: 'relevance' } });
    expect(sort.required ?? false).toBe(false);
    expect(sort.schema.description).toMatch(/^Extension/);
  });
});
