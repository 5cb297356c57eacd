import { z } from 'zod';
import type { Llm } from '@vrs/ai';
import type { TrendReport } from '@vrs/contracts';
import type { Logger, TraceContext } from '@vrs/kit';
import { describeSample, groundVideoIds } from './sample-prompt';

const citing = z.object({
  title: z.string().min(1).max(200),
  description: z.string().min(1).max(1000),
  videoIds: z.array(z.string()).min(1).max(10).describe('videoId values of the sample that show it'),
});
const insightsDraftSchema = z.object({ themes: z.array(citing).min(1).max(5), contentGaps: z.array(citing).min(1).max(5) });

const system =
  'You analyse a sample of YouTube videos on one topic. Name the themes that drive the fastest videos and the content gaps ' +
  'nobody covers well yet. Cite only videoId values listed in the sample.';

/**
 * AI insights of a report, each theme and gap citing videos of the sample (grounded: unknown ids are
 * removed, a claim left with none is dropped). A missing or failing model is not an error: the
 * report goes without insights and says why in a warning.
 */
export async function generateInsights(
  llm: Llm | null,
  sample: Parameters<typeof describeSample>[0],
  logger: Logger,
  /** The report's request trace context: the model's attempts go under it (ADR 0117). */
  trace?: TraceContext,
): Promise<{ insights: TrendReport['insights']; warnings: string[] }> {
  if (!llm) return { insights: undefined, warnings: ['Insights omitted: no AI model is configured.'] };
  try {
    const { object, model } = await llm.generateObject({ schema: insightsDraftSchema, system, prompt: describeSample(sample), trace });
    const themes = groundVideoIds(object.themes, sample.videos);
    const contentGaps = groundVideoIds(object.contentGaps, sample.videos);
    return {
      insights: { model, themes: themes.claims, contentGaps: contentGaps.claims },
      warnings: [...themes.warnings, ...contentGaps.warnings],
    };
  } catch (error) {
    logger.warn({ err: error }, 'trend insights failed; report goes without them');
    return { insights: undefined, warnings: ['Insights omitted: the AI model is unavailable.'] };
  }
}
