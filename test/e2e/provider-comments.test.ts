import { describe, expect, inject, it } from 'vitest';
import { hoursFromRelativeText } from '@vrs/contracts';
import { apiClient, createApiKey, type ApiResponse } from '@vrs/testing/api-client';
import { fakeYouTubeControl } from '@vrs/testing/upstreams/youtube/control-client';
import { hasRecorded, reportMissingShared } from '@vrs/testing/upstreams/youtube/fixture-dirs';

reportMissingShared('provider comments (e2e)');

const gatewayUrl = inject('gatewayUrl');
const youtube = fakeYouTubeControl(inject('youtubeUpstreamUrl'));
const commentsPath = (id: string, query = '') => `/v1/providers/youtube/videos/${id}/comments${query}`;
const charged = (response: ApiResponse) => Number(response.headers.get('x-credits-charged'));

describe.skipIf(!hasRecorded)('comments over the recordings', () => {
  const api = apiClient(gatewayUrl, { 'x-demo-user': `provider-comments-${Date.now()}` });

  it("reserves the price of the mode asked for: a page needs a page's credits, a collection its own", async () => {
    const { key } = await createApiKey(inject('stackEnv'), { credits: 5 });
    const poor = apiClient(gatewayUrl, { authorization: `Bearer ${key}` });
    const page = await poor('GET', commentsPath('bjFtFMilb34'));
    expect(page.status, page.text).toBe(200);
    const collection = await poor('GET', commentsPath('bjFtFMilb34', '?newest=true&limit=10'));
    expect(collection.status).toBe(402);
    expect(collection.body.error).toMatchObject({ code: 'INSUFFICIENT_CREDITS', details: { required: 10 } });
    expect(Number(collection.headers.get('x-credits-remaining'))).toBe(5 - charged(page));
  });

  it('answers one page in the default ranking with its continuation, and the page the continuation names', async () => {
    // A refresh, so another suite having saved this video's comments on the shared stack doesn't make it a cached read.
    const first = await api('GET', commentsPath('xaQJbozY_Is', '?refresh=true'));
    expect(first.status, first.text).toBe(200);
    expect(charged(first)).toBe(3);
    expect(first.body).toMatchObject({
      videoId: 'xaQJbozY_Is',
      totalCount: 21051,
      meta: { provider: 'youtube', partial: false, warnings: [] },
    });
    expect(first.body.comments).toHaveLength(20);
    expect(first.body.comments[0]).toEqual({
      id: 'UgwSOM0QHBLysE3vZE54AaABAg',
      text: expect.stringMatching(/^The 12,022 Calendar is sold out/),
      author: {
        id: 'UCsXVk37bltHxD1rDPwtNM8Q',
        name: '@kurzgesagt',
        url: 'https://www.youtube.com/@kurzgesagt',
        isCreator: true,
        isVerified: true,
      },
      likeCount: 9800,
      replyCount: 327,
      publishedTimeText: '4 years ago (edited)',
      isPinned: true,
      isHearted: false,
    });
    expect(first.body).not.toHaveProperty('complete');
    const again = await api('GET', commentsPath('xaQJbozY_Is'));
    expect(charged(again)).toBe(1);
    expect(again.body.meta.fetchedAt).toBe(first.body.meta.fetchedAt);

    const second = await api('GET', commentsPath('xaQJbozY_Is', `?continuation=${encodeURIComponent(first.body.continuation)}`));
    expect(second.status, second.text).toBe(200);
    expect(charged(second)).toBe(3);
    expect(second.body.comments).toHaveLength(10);
    expect(second.body.continuation).toBeUndefined();
    const ids = [...first.body.comments, ...second.body.comments].map((comment: { id: string }) => comment.id);
    expect(new Set(ids).size).toBe(30);
  });

  it('collects newest first (issue 13: limit=100), ordered by time with the pinned comment flagged, not leading, and not complete while 21,051 are counted', async () => {
    const response = await api('GET', commentsPath('xaQJbozY_Is', '?newest=true&limit=100'));
    expect(response.status, response.text).toBe(200);
    expect(charged(response)).toBe(10);
    expect(response.body).toMatchObject({
      complete: false,
      pagesFetched: 3,
      topLevelCount: 20,
      replyCount: 0,
      remainingContinuations: 0,
      totalCount: 21051,
      meta: { partial: true },
    });
    expect(response.body.meta.warnings.join(' ')).toMatch(/ended its comment pages after 20 comments, while it counts 21051/);
    const ages = (response.body.comments as { publishedTimeText: string }[]).map((c) => hoursFromRelativeText(c.publishedTimeText)!);
    expect(ages).toEqual([...ages].sort((a, b) => a - b));
    expect(response.body.comments[0].publishedTimeText).toBe('11 months ago');
    const pinned = response.body.comments.findIndex((c: { isPinned: boolean }) => c.isPinned);
    expect(pinned).toBeGreaterThan(0);
    expect(response.body.comments[pinned].publishedTimeText).toBe('4 years ago (edited)');
    expect(response.body.continuation).toBeUndefined();
    const reused = await api('GET', commentsPath('xaQJbozY_Is', '?newest=true&limit=100'));
    expect(charged(reused)).toBe(2);
    expect(reused.body.meta.fetchedAt).toBe(response.body.meta.fetchedAt);
  });

  it("sort=newest: the first newest-first page at a page's price, in time order, with the continuation to the next", async () => {
    const page = await api('GET', commentsPath('xaQJbozY_Is', '?sort=newest&refresh=true'));
    expect(page.status, page.text).toBe(200);
    expect(charged(page)).toBe(3);
    expect(page.body).toMatchObject({ totalCount: 21051, meta: { partial: false, warnings: [] } });
    expect(page.body).not.toHaveProperty('complete');
    expect(page.body.comments).toHaveLength(10);
    const ages = (page.body.comments as { publishedTimeText: string }[]).map((c) => hoursFromRelativeText(c.publishedTimeText)!);
    expect(ages).toEqual([...ages].sort((a, b) => a - b));
    expect(page.body.comments[0].publishedTimeText).toBe('11 months ago');
    // Saved apart from the Top page: reused at the cached price, and it is not the Top page.
    const reused = await api('GET', commentsPath('xaQJbozY_Is', '?sort=newest'));
    expect(charged(reused)).toBe(1);
    expect(reused.body.comments).toEqual(page.body.comments);
    const top = await api('GET', commentsPath('xaQJbozY_Is'));
    expect(top.body.comments[0].id).not.toBe(page.body.comments[0].id);
    // The continuation carries the newest-first order on.
    const next = await api('GET', commentsPath('xaQJbozY_Is', `?continuation=${encodeURIComponent(page.body.continuation)}`));
    expect(next.status, next.text).toBe(200);
    expect(next.body.comments).toHaveLength(10);
    const ids = [...page.body.comments, ...next.body.comments].map((comment: { id: string }) => comment.id);
    expect(new Set(ids).size).toBe(20);
  });

  it('sort orders a first page only: with a continuation or newest=true it is a 422 naming sort', async () => {
    for (const query of ['?sort=newest&continuation=abc', '?sort=top&newest=true', '?sort=oldest']) {
      const response = await api('GET', commentsPath('xaQJbozY_Is', query));
      expect(response.status, query).toBe(422);
      expect(
        response.body.error.details.issues.map((issue: { path: string }) => issue.path),
        query,
      ).toContain('sort');
    }
  });

  it('stops at the bound and says so: partial, with warnings and the continuations not followed', async () => {
    const mid = await api('GET', commentsPath('xaQJbozY_Is', '?newest=true&limit=15'));
    expect(mid.body).toMatchObject({ complete: false, topLevelCount: 15, remainingContinuations: 0, meta: { partial: true } });
    expect(mid.body.comments).toHaveLength(15);
    expect(mid.body.meta.warnings[0]).toMatch(/limit of 15 comments/);
    const atPageEnd = await api('GET', commentsPath('xaQJbozY_Is', '?newest=true&limit=10'));
    expect(atPageEnd.body).toMatchObject({ complete: false, topLevelCount: 10, remainingContinuations: 1, meta: { partial: true } });
    expect(atPageEnd.body.meta.warnings[0]).toMatch(/limit of 10 comments; 1 continuation/);
  });

  it('follows the replies of each thread when asked, replies carrying their parent', async () => {
    const response = await api('GET', commentsPath('xaQJbozY_Is', '?newest=true&replies=true&limit=11'));
    expect(response.body).toMatchObject({ topLevelCount: 1, replyCount: 10, meta: { partial: true } });
    expect(response.body.comments.find((c: { parentId?: string }) => c.parentId)).toMatchObject({
      parentId: 'UgwSOM0QHBLysE3vZE54AaABAg',
      id: expect.stringMatching(/^UgwSOM0QHBLysE3vZE54AaABAg\./),
    });
  });

  it('returns what it collected, marked partial, when a later page fails', async () => {
    // The request and its one retry both fail.
    await youtube.addFault({
      match: { endpoint: 'next', continuation: 'vrs-authored:xaQJbozY_Is:newest:page-2' },
      kind: 'status',
      status: 500,
      times: 2,
    });
    const response = await api('GET', commentsPath('xaQJbozY_Is', '?newest=true&limit=400'));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ complete: false, topLevelCount: 10, remainingContinuations: 1, meta: { partial: true } });
    expect(response.body.meta.warnings.join(' ')).toMatch(/Comment page 3 failed/);
    // Saved as it is: a refresh asks again.
    const retried = await api('GET', commentsPath('xaQJbozY_Is', '?newest=true&limit=400&refresh=true'));
    expect(retried.body).toMatchObject({ topLevelCount: 20, remainingContinuations: 0 });
    expect(retried.body.meta.warnings.join(' ')).not.toMatch(/Comment page 3 failed/);
  });

  it('answers a video without comments section with an empty page that says why', async () => {
    const live = await api('GET', commentsPath('X4VbdwhkE10'));
    expect(live.status).toBe(200);
    expect(live.body.comments).toEqual([]);
    expect(live.body.meta).toMatchObject({ partial: false, warnings: [expect.stringMatching(/no comments section/)] });
  });

  it('answers a removed or unknown video with 404 VIDEO_UNAVAILABLE rather than an empty page', async () => {
    const response = await api('GET', commentsPath('INVALID_ID_'));
    expect(response.status, response.text).toBe(404);
    expect(response.body.error).toMatchObject({ code: 'VIDEO_UNAVAILABLE' });
  });
});
