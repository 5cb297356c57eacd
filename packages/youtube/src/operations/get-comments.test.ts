import { describe, expect, it } from 'vitest';
import { hoursFromRelativeText } from '@vrs/contracts';
import { commentsPageSchema, newestCommentsSchema } from '../shapes/comments';
import { hasRecorded, reportMissingShared, useReplay, testClient } from '@vrs/testing/youtube-replay';

reportMissingShared('comments');

const page2Token = 'vrs-authored:xaQJbozY_Is:newest:page-2';

describe.skipIf(!hasRecorded)('comments over the recordings', () => {
  const fake = useReplay();

  it('reads the first Top page through the token of the watch page, with its continuation and total', async () => {
    const page = commentsPageSchema.parse(await testClient(fake).getComments('xaQJbozY_Is'));
    expect(page.comments).toHaveLength(20);
    expect(page.totalCount).toBe(21051);
    expect(page.continuation).toMatch(/^Eg0SC3hhUUpib3pZX0lz/);
    expect(page.comments[0]).toEqual({
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
  });

  it('reads the pinned and hearted flags of the other recorded videos', async () => {
    const pinned = await testClient(fake).getComments('bjFtFMilb34');
    expect(pinned.comments[0]).toMatchObject({ isPinned: true, author: { name: '@lemondefr', isCreator: true } });
    expect(pinned.totalCount).toBe(5145);
    const creator = await testClient(fake).getComments('bem4adjGKjE');
    expect(creator.comments.filter((c) => c.isHearted).length).toBeGreaterThan(0);
    expect(creator.totalCount).toBe(105);
  });

  it('reads the 2024 recording of the same page when selected', async () => {
    fake.select('youtube-recorded/newpipe-extractor/comments/xaQJbozY_Is.2024-11.1_next_video.json');
    fake.select('youtube-recorded/newpipe-extractor/comments/xaQJbozY_Is.2024-11.2_next_comments_top_page1.json');
    const page = await testClient(fake).getComments('xaQJbozY_Is');
    expect(page.comments.length).toBeGreaterThan(0);
    expect(page.comments.every((c) => c.id && c.author.name)).toBe(true);
  });

  it('follows a continuation given by the caller', async () => {
    const page = await testClient(fake).getComments('xaQJbozY_Is', { continuation: page2Token });
    expect(page.comments).toHaveLength(10);
    expect(page.continuation).toBeUndefined();
  });

  it('follows the continuation of the recorded Top page to the authored second page', async () => {
    const client = testClient(fake);
    const first = await client.getComments('xaQJbozY_Is');
    const second = await client.getComments('xaQJbozY_Is', { continuation: first.continuation });
    expect(second.comments).toHaveLength(10);
    expect(second.comments[0]).toMatchObject({ id: 'UgwIR_9bUG6Z1jdomVt4AaABAg', author: { name: '@lynnclaywood4043' } });
    expect(second.continuation).toBeUndefined();
    expect(fake.unmatched()).toEqual([]);
  });

  it('reports a video without comments section with a warning, not an error', async () => {
    const page = await testClient(fake).getComments('X4VbdwhkE10');
    expect(page.comments).toEqual([]);
    expect(page.warnings[0]).toMatch(/no comments section/);
  });

  it('asks the player when there is no comments section, so an unavailable video is an error, not an empty page', async () => {
    await expect(testClient(fake).getComments('INVALID_ID_')).rejects.toMatchObject({ code: 'VIDEO_UNAVAILABLE', reason: 'not_found' });
    await expect(testClient(fake).getNewestComments('INVALID_ID_', { limit: 10 })).rejects.toMatchObject({ code: 'VIDEO_UNAVAILABLE' });
  });

  it('collects newest first through the recorded "Newest" token and every continuation, ordered by time, pinned flagged not leading', async () => {
    const result = newestCommentsSchema.parse(await testClient(fake).getNewestComments('xaQJbozY_Is', { limit: 100 }));
    expect(result).toMatchObject({ pagesFetched: 3, topLevelCount: 20, replyCount: 0, remainingContinuations: 0, totalCount: 21051 });
    expect(new Set(result.comments.map((c) => c.id)).size).toBe(20);
    const ages = result.comments.map((c) => hoursFromRelativeText(c.publishedTimeText)!);
    expect(ages).toEqual([...ages].sort((a, b) => a - b));
    expect(ages[0]).toBeLessThan(ages.at(-1)!);
    const pinned = result.comments.findIndex((c) => c.isPinned);
    expect(pinned).toBeGreaterThan(0);
    expect(result.comments[pinned]?.publishedTimeText).toMatch(/^4 years ago/);
    // Every page YouTube offered was read, yet 20 threads cannot account for the 21,051 it counts.
    expect(result).toMatchObject({ complete: false, partial: true });
    expect(result.warnings.join(' ')).toMatch(/ended its comment pages after 20 comments, while it counts 21051/);
  });

  it('reads one newest-first page: the first page in time order, its continuation, the total; nothing past it', async () => {
    const page = commentsPageSchema.parse(await testClient(fake).getComments('xaQJbozY_Is', { sort: 'newest' }));
    // The watch page's /next, the Top page (for its sort menu), the Newest page: its continuation is not followed.
    expect(fake.hits().byEndpoint.next).toBe(3);
    const collection = await testClient(fake).getNewestComments('xaQJbozY_Is', { limit: 10 });
    expect(page.comments.map((c) => c.id)).toEqual(collection.comments.map((c) => c.id));
    expect(page).toMatchObject({ totalCount: 21051, continuation: page2Token, warnings: [] });
    expect(page.partial).toBeUndefined();
    const ages = page.comments.map((c) => hoursFromRelativeText(c.publishedTimeText)!);
    expect(ages).toEqual([...ages].sort((a, b) => a - b));
    const next = await testClient(fake).getComments('xaQJbozY_Is', { continuation: page.continuation });
    expect(next.comments).toHaveLength(10);
  });

  it('stops at the bound and says so', async () => {
    const result = await testClient(fake).getNewestComments('xaQJbozY_Is', { limit: 15 });
    expect(result).toMatchObject({ complete: false, partial: true, topLevelCount: 15, remainingContinuations: 0 });
    expect(result.comments).toHaveLength(15);
    expect(result.warnings[0]).toMatch(/limit of 15 comments/);
    const atPageEnd = await testClient(fake).getNewestComments('xaQJbozY_Is', { limit: 10 });
    expect(atPageEnd).toMatchObject({ complete: false, topLevelCount: 10, remainingContinuations: 1 });
    expect(atPageEnd.warnings[0]).toMatch(/limit of 10 comments; 1 continuation/);
  });

  it('follows the replies token of a thread (commentRepliesRenderer.contents) when asked', async () => {
    const result = await testClient(fake).getNewestComments('xaQJbozY_Is', { limit: 11, includeReplies: true });
    expect(result).toMatchObject({ topLevelCount: 1, replyCount: 10, partial: true, remainingContinuations: 2 });
    expect(result.comments[1]).toMatchObject({
      parentId: 'UgwSOM0QHBLysE3vZE54AaABAg',
      id: expect.stringMatching(/^UgwSOM0QHBLysE3vZE54AaABAg\./),
    });
  });

  it('returns what it collected, marked partial, when a later page fails', async () => {
    fake.addFault({ match: { endpoint: 'next', continuation: page2Token }, kind: 'status', status: 500 });
    const result = await testClient(fake, { retries: 0 }).getNewestComments('xaQJbozY_Is', { limit: 500 });
    expect(result).toMatchObject({ complete: false, partial: true, topLevelCount: 10, remainingContinuations: 1 });
    expect(result.warnings.join(' ')).toMatch(/Comment page 3 failed/);
  });

  it('throws when nothing could be collected', async () => {
    fake.addFault({ match: { endpoint: 'next', videoId: 'xaQJbozY_Is' }, kind: 'status', status: 503 });
    await expect(testClient(fake, { retries: 0 }).getNewestComments('xaQJbozY_Is', { limit: 10 })).rejects.toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
    });
  });
});
