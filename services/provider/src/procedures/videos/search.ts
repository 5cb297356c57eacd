import { providerSearchFetched, searchVideosInputSchema, type Served, type VideoSearchResults } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { ProviderDeps } from '../../provider-deps';
import { metaFromWarnings } from '../../versions/meta';
import { continuationPart, versionKey } from '../../versions/keys';

/**
 * Video search. A search is a query about now, not a resource: YouTube always answers it, and the
 * answer is still saved as a version so its history can be read later (trends, research). The
 * order asked for (`sort`) is part of the version's key: each order is its own answer.
 */
export const searchVideos = ({ reads, youtube }: ProviderDeps) =>
  procedure.input(searchVideosInputSchema).query(async ({ input, ctx }): Promise<Served<VideoSearchResults>> => {
    const { q, sort, continuation } = input;
    const { version, cached } = await reads.read({
      request: ctx,
      kind: 'search',
      key: versionKey(q.toLowerCase(), sort, continuationPart(continuation)),
      refresh: true,
      fetch: () => youtube.search(q, { sort, continuation }),
      event: providerSearchFetched,
      eventData: (results) => ({ query: q, count: results.videos.length }),
    });
    const { warnings, ...results } = version.data;
    return { result: { ...results, meta: metaFromWarnings(version, warnings) }, cached };
  });
