import { beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, createApiKey, type ApiResponse } from '@vrs/testing/api-client';

const gatewayUrl = inject('gatewayUrl');
const stackEnv = inject('stackEnv');

function expectError(response: ApiResponse, status: number, code: string) {
  expect(response.status, response.text).toBe(status);
  expect(response.body.error).toMatchObject({ code, message: expect.any(String), requestId: response.headers.get('x-request-id') });
}

// Every provider operation, with a valid id: only the provider makes them fail.
const providerPaths = (provider: string) => [
  `/v1/providers/${provider}/videos/vrsFixture1`,
  `/v1/providers/${provider}/videos/vrsFixture1/transcript`,
  `/v1/providers/${provider}/videos/vrsFixture1/transcript?format=srt`,
  `/v1/providers/${provider}/videos/vrsFixture1/comments`,
  `/v1/providers/${provider}/channels/@EEVblog`,
  `/v1/providers/${provider}/channels/@EEVblog/playlists`,
  `/v1/providers/${provider}/playlists/PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr`,
  `/v1/providers/${provider}/search?q=espresso`,
];

describe('provider operations: the API around them', () => {
  const api = apiClient(gatewayUrl, { 'x-demo-user': `provider-api-${Date.now()}` });

  it('lists the supported providers and their capabilities, free of charge', async () => {
    const response = await api('GET', '/v1/providers');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-credits-charged')).toBeNull();
    expect(response.body.providers).toEqual([
      expect.objectContaining({
        id: 'youtube',
        name: 'YouTube',
        capabilities: expect.objectContaining({
          transcript: { detail: ['text', 'segments', 'words'], formats: ['json', 'srt', 'vtt'], translation: true },
          comments: { page: true, newest: true, maxLimit: 5000 },
          channelPlaylists: { sort: ['newest', 'last-video-added'] },
        }),
      }),
    ]);
  });

  it('answers 422 PROVIDER_NOT_SUPPORTED for any other provider, on every operation, charging nothing', async () => {
    const before = (await api('GET', '/v1/billing')).body.credits.balance;
    for (const path of providerPaths('vimeo')) {
      const response = await api('GET', path);
      expectError(response, 422, 'PROVIDER_NOT_SUPPORTED');
      expect(response.body.error.details.issues[0].path).toBe('provider');
    }
    expect((await api('GET', '/v1/billing')).body.credits.balance).toBe(before);
  });

  it('validates the rest as usual: a missing query, a bad language, an unknown format, newest with a continuation', async () => {
    expectError(await api('GET', '/v1/providers/youtube/search'), 422, 'QUERY_REQUIRED');
    expectError(await api('GET', '/v1/providers/youtube/search?q=%20%20'), 422, 'QUERY_REQUIRED');
    const lang = await api('GET', '/v1/providers/youtube/videos/vrsFixture1/transcript?lang=not%20a%20language');
    expectError(lang, 422, 'VALIDATION_FAILED');
    expect(lang.body.error.details.issues[0].path).toBe('lang');
    expectError(await api('GET', '/v1/providers/youtube/videos/vrsFixture1/transcript?format=docx'), 422, 'VALIDATION_FAILED');
    expectError(await api('GET', '/v1/providers/youtube/videos/vrsFixture1/transcript?detail=everything'), 422, 'VALIDATION_FAILED');
    const mixed = await api('GET', '/v1/providers/youtube/videos/vrsFixture1/comments?newest=true&continuation=abc');
    expectError(mixed, 422, 'VALIDATION_FAILED');
    expect(mixed.body.error.details.issues[0].path).toBe('continuation');
    expectError(await api('GET', '/v1/providers/youtube/videos/vrsFixture1/comments?newest=true&limit=5001'), 422, 'VALIDATION_FAILED');
    expectError(await api('GET', '/v1/providers/youtube/videos/vrsFixture1?refresh=yes'), 422, 'VALIDATION_FAILED');
  });

  describe('credentials and scopes', () => {
    let readKey: string;
    let accountKey: string;
    beforeAll(async () => {
      [{ key: readKey }, { key: accountKey }] = await Promise.all([
        createApiKey(stackEnv, { scopes: ['data:read'] }),
        createApiKey(stackEnv, { scopes: ['account:access'] }),
      ]);
    });

    it('refuses anonymous callers (401) and keys without data:read (403), the subtitle file route included', async () => {
      const anonymous = apiClient(gatewayUrl);
      const withoutRead = apiClient(gatewayUrl, { authorization: `Bearer ${accountKey}` });
      for (const path of ['/v1/providers', ...providerPaths('youtube')]) {
        expectError(await anonymous('GET', path), 401, 'UNAUTHENTICATED');
        const refused = await withoutRead('GET', path);
        expectError(refused, 403, 'INSUFFICIENT_SCOPE');
        expect(refused.body.error.details.missing).toEqual(['data:read']);
      }
    });

    it('serves a key holding data:read', async () => {
      const reader = apiClient(gatewayUrl, { authorization: `Bearer ${readKey}` });
      expect((await reader('GET', '/v1/providers')).status).toBe(200);
      const video = await reader('GET', '/v1/providers/youtube/videos/vrsFixture1/transcript?format=vtt');
      expect(video.status, video.text).toBe(200);
    });
  });

  it('documents every provider operation in the OpenAPI document, the subtitle files included', async () => {
    const { body: doc } = await api('GET', '/v1/openapi.json');
    const operations = {
      '/providers': ['listProviders', 'Providers'],
      '/providers/{provider}/videos/{id}': ['getVideo', 'Videos'],
      '/providers/{provider}/videos/{id}/transcript': ['getVideoTranscript', 'Videos'],
      '/providers/{provider}/videos/{id}/comments': ['getVideoComments', 'Videos'],
      '/providers/{provider}/channels/{id}': ['getChannel', 'Channels'],
      '/providers/{provider}/channels/{id}/playlists': ['listChannelPlaylists', 'Channels'],
      '/providers/{provider}/playlists/{id}': ['getPlaylist', 'Playlists'],
      '/providers/{provider}/search': ['searchVideos', 'Discovery'],
    };
    for (const [path, [operationId, tag]] of Object.entries(operations)) {
      const operation = doc.paths[path]?.get;
      expect(operation, path).toMatchObject({ operationId, tags: [tag] });
      if (path === '/providers') continue;
      expect(operation.parameters.find((p: { name: string }) => p.name === 'provider')).toMatchObject({
        in: 'path',
        required: true,
        schema: { enum: ['youtube'] },
      });
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '401', '402', '403', '422', '429', '503']));
      expect(Object.keys(operation.responses['200'].headers)).toEqual(expect.arrayContaining(['X-Credits-Charged', 'X-Credits-Remaining']));
    }
    const transcript = doc.paths['/providers/{provider}/videos/{id}/transcript'].get;
    const param = (name: string) => transcript.parameters.find((p: { name: string }) => p.name === name);
    expect(param('format')).toMatchObject({ in: 'query', schema: { enum: ['json', 'srt', 'vtt'], default: 'json' } });
    expect(param('detail')).toMatchObject({ in: 'query', schema: { enum: ['text', 'segments', 'words'], default: 'words' } });
    expect(param('refresh')).toMatchObject({ in: 'query', schema: { enum: ['true', 'false'], default: 'false' } });
    expect(Object.keys(transcript.responses['200'].content).sort()).toEqual(['application/json', 'application/x-subrip', 'text/vtt']);
    const comments = doc.paths['/providers/{provider}/videos/{id}/comments'].get;
    expect(comments.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      'continuation',
      'id',
      'limit',
      'newest',
      'provider',
      'refresh',
      'replies',
      'sort',
    ]);
    expect(doc.components.schemas.Transcript.properties.words.items.$ref).toBe('#/components/schemas/TranscriptWord');
  });
});
