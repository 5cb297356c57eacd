import { createComparisonInputSchema, type Comparison } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import { channelMetrics, videoMetrics } from '../../comparisons/metrics';
import { summarizeVideos } from '../../comparisons/summarize-videos';
import { viaProvider } from '../../provider-client';
import type { ResearchDeps } from '../../research-deps';

/**
 * Side-by-side metrics of 2-5 videos (with a cited summary of what they say, when a model is
 * configured) or channels (medians over their recent uploads), stored. Any of them missing fails
 * the comparison with the provider's error: half a comparison compares nothing.
 */
export const createComparison = ({ provider, llm, comparisons }: ResearchDeps) =>
  procedure.input(createComparisonInputSchema).mutation(async ({ input, signal }): Promise<Comparison> => {
    const { accountId, type, ids } = input;
    if (type === 'channel') {
      const channels = (await Promise.all(ids.map((channel) => viaProvider(provider.channels.get.query({ channel }))))).map(
        ({ result }) => result,
      );
      // What the provider could not get (an empty videos tab) explains empty medians.
      const warnings = channels.flatMap((channel) => channel.meta.warnings.map((warning) => `${channel.id}: ${warning}`));
      return comparisons.save(accountId, { type, channels: channels.map(channelMetrics), warnings });
    }
    const now = Date.now();
    const fetched = await Promise.all(ids.map((videoId) => viaProvider(provider.videos.get.query({ videoId }))));
    const videos = fetched.map(({ result }) => videoMetrics(result, now));
    const { summary, warnings } = await summarizeVideos(provider, llm, videos, signal);
    return comparisons.save(accountId, { type, videos, ...(summary ? { summary } : {}), warnings });
  });
