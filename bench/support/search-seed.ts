import { type apiClient, eventually } from '@vrs/testing/api-client';
import { sentence } from './transcript-corpus';

type Api = ReturnType<typeof apiClient>;

/**
 * Seeds a project of the caller's account with `itemCount` chunks of the transcript-like corpus and
 * waits until search finds all of it; answers the path of a search for `query` and its first answer.
 */
export async function seedSearchProject(api: Api, itemCount: number, query: string) {
  const { body: project } = await api('POST', '/v1/projects', { json: { name: 'bench' } });
  for (let offset = 0; offset < itemCount; offset += 100) {
    const items = Array.from({ length: Math.min(100, itemCount - offset) }, (_, i) => ({
      text: `${sentence(offset + i)} marker${offset + i}`,
      sourceKey: `bench:${offset + i}`,
    }));
    const response = await api('POST', `/v1/projects/${project.id}/evidence`, { json: { items } });
    if (response.status !== 200) throw new Error(`seeding failed: ${response.status} ${response.text}`);
  }
  const searchPath = `/v1/projects/${project.id}/search?q=${encodeURIComponent(query)}`;
  const sample = await eventually(
    async () => {
      // Events are indexed in order: once the last item is found, the corpus is complete.
      const last = await api('GET', `/v1/projects/${project.id}/search?q=marker${itemCount - 1}`);
      if (last.body.results?.[0]?.sourceKey !== `bench:${itemCount - 1}`) return undefined;
      return api('GET', searchPath);
    },
    { timeoutMs: 300_000, what: 'the seeded evidence to be indexed' },
  );
  return { searchPath, sample };
}

/** An API key of the caller's account, made through the public API: an external consumer's credential. */
export async function apiKeyHeaders(api: Api) {
  const { body: apiKey } = await api('POST', '/v1/api-keys', { json: { name: 'bench', scopes: ['data:read', 'account:access'] } });
  if (!apiKey.key) throw new Error(`no API key: ${JSON.stringify(apiKey)}`);
  return { authorization: `Bearer ${apiKey.key}` };
}
