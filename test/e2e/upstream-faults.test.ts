import { describe, expect, inject, it } from 'vitest';
import { apiClient, type ApiCall, type ApiResponse } from '@vrs/testing/api-client';
import { fakeYouTubeControl } from '@vrs/testing/upstreams/youtube/control-client';

const gatewayUrl = inject('gatewayUrl');
const youtube = fakeYouTubeControl(inject('youtubeUpstreamUrl'));

/** Words only this file searches for, so its faults touch no other test's requests. */
const topic = (label: string) => `faultprobe ${label} ${Date.now().toString(36)}`;

async function balanceOf(api: ApiCall): Promise<number> {
  return (await api('GET', '/v1/billing')).body.credits.balance;
}

/** A typed upstream failure: 503 in the envelope, our words, the reason, whether to retry, nothing charged. */
function expectUpstreamFailure(response: ApiResponse, reason: string, retryable: boolean) {
  expect(response.status, response.text).toBe(503);
  expect(response.body.error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', details: { reason, retryable } });
  // YouTube's own answer (its path, its body) never reaches the caller.
  expect(response.text).not.toMatch(/youtubei|\/v1\/search|fake|recording|<html/i);
  expect(response.headers.get('x-credits-charged') ?? '0').toBe('0');
}

describe('a YouTube failure seen through another service keeps its type (issue 12, reproduction 1)', () => {
  const api = apiClient(gatewayUrl, { 'x-demo-user': `faults-${Date.now()}` });

  it('trends: a refused search is a 503 UPSTREAM_UNAVAILABLE, not a 500, and costs nothing', async () => {
    const before = await balanceOf(api);
    // Nothing is recorded for this topic: the fake upstream refuses the search with a 404 and a body.
    const response = await api('GET', `/v1/providers/youtube/trends?q=${encodeURIComponent(topic('refused'))}&mode=deterministic`);
    expectUpstreamFailure(response, 'upstream_error', false);
    expect(response.body.error.message).toBe('YouTube refused the request.');
    expect(await balanceOf(api)).toBe(before);
  });

  it('trends: YouTube failing (5xx) is a retryable 503 with our words', async () => {
    const q = topic('failing');
    await youtube.addFault({ match: { endpoint: 'search', query: q }, kind: 'status', status: 500 });
    const response = await api('GET', `/v1/providers/youtube/trends?q=${encodeURIComponent(q)}&mode=deterministic`);
    expectUpstreamFailure(response, 'upstream_error', true);
    expect(response.body.error.message).toBe('YouTube failed to answer; retry later.');
  });

  it('answers: a refused public search is a 503 with the provider’s reason, refunded', async () => {
    const before = await balanceOf(api);
    const response = await api('POST', '/v1/answers', { json: { question: topic('answer') } });
    expectUpstreamFailure(response, 'upstream_error', false);
    expect(await balanceOf(api)).toBe(before);
  });

  it('YouTube rate-limiting us: 503 with reason rate_limited and its Retry-After, through the provider and through trends', async () => {
    const q = topic('limited');
    await youtube.addFault({ match: { endpoint: 'search', query: q }, kind: 'status', status: 429 });
    for (const path of [
      `/v1/providers/youtube/search?q=${encodeURIComponent(q)}`,
      `/v1/providers/youtube/trends?q=${encodeURIComponent(q)}&mode=deterministic`,
    ]) {
      const response = await api('GET', path);
      expectUpstreamFailure(response, 'rate_limited', true);
      expect(response.body.error.details.retryAfterSeconds).toBe(1);
      expect(response.headers.get('retry-after')).toBe('1');
    }
  });

  it('the provider itself answers the same way', async () => {
    const response = await api('GET', `/v1/providers/youtube/search?q=${encodeURIComponent(topic('search'))}`);
    expectUpstreamFailure(response, 'upstream_error', false);
  });
});
