import { createComparisonInputSchema, type Comparison } from '@vrs/contracts';
import { AppError, forRequest, procedure } from '@vrs/kit';
import { channelMetrics, videoMetrics } from '../../comparisons/metrics';
import { summarizeVideos } from '../../comparisons/summarize-videos';
import { viaProvider } from '../../provider-client';
import type { ResearchDeps } from '../../research-deps';

/**
 * Ids that turned out to name the same thing once resolved (a channel by handle and by id): a
 * comparison of something with itself is refused, and the gateway refunds it.
 */
function refuseDuplicates(fetched: { given: string; result: { id: string } }[]): void {
  const byResolved = new Map<string, string[]>();
  for (const { given, result } of fetched) byResolved.set(result.id, [...(byResolved.get(result.id) ?? []), given]);
  const duplicates = [...byResolved].filter(([, ids]) => ids.length > 1).map(([id, ids]) => ({ id, given: ids }));
  const [first] = duplicates;
  if (first === undefined) return;
  throw new AppError('DUPLICATE_IDS', `${first.given.join(' and ')} are the same: ${first.id}.`, { duplicates });
}

/**
 * Side-by-side metrics of 2-5 videos (with a cited summary of what they say, when a model is
 * configured) or channels (medians over their recent uploads), stored. Any of them missing fails
 * the comparison with the provider's error: half a comparison compares nothing.
 */
export const createComparison = (deps: ResearchDeps) =>
  procedure.input(createComparisonInputSchema).mutation(async ({ input, ctx, signal }): Promise<Comparison> => {
    const { llm, comparisons } = deps;
    const provider = forRequest(deps.provider, ctx);
    const { accountId, type, ids } = input;
    if (type === 'channel') {
      const channels = await Promise.all(
        ids.map(async (channel) => ({ given: channel, ...(await viaProvider(provider.channels.get.query({ channel }))) })),
      );
      refuseDuplicates(channels);
      // What the provider could not get (an empty videos tab) explains empty medians.
      const warnings = channels.flatMap(({ result }) => result.meta.warnings.map((warning) => `${result.id}: ${warning}`));
      return comparisons.save(accountId, { type, channels: channels.map(({ result }) => channelMetrics(result)), warnings });
    }
    const now = Date.now();
    const fetched = await Promise.all(
      ids.map(async (videoId) => ({ given: videoId, ...(await viaProvider(provider.videos.get.query({ videoId }))) })),
    );
    refuseDuplicates(fetched);
    const videos = fetched.map(({ result }) => videoMetrics(result, now));
    const { summary, warnings } = await summarizeVideos(provider, llm, videos, signal, ctx.trace);
    return comparisons.save(accountId, { type, videos, ...(summary ? { summary } : {}), warnings });
  });
