import { clampTrendSampleSize, trendReportSchema, getTopicTrendsInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { meteredErrors } from '../errors';
import { providerFieldCodes } from '../providers/provider-params';

export const getTopicTrends = protectedOperation({
  method: 'GET',
  path: '/providers/{provider}/trends',
  operationId: 'getTopicTrends',
  tags: ['Discovery'],
  summary: 'Calculate public trend signals for a topic',
  description:
    "Methodology 3.0 (see `methodology`): a diversified sample of the topic's videos, enriched with exact counts; a metric snapshot per video is saved, and when an earlier one exists the signals are `observed` (views gained since, acceleration), otherwise `lifetime`. Scores are percentiles within the sample. With `mode=ai` (default) `insights` adds themes and content gaps citing the sample's videos; it is omitted, with a warning, when no model is configured or the model fails.",
  errorResponses: [...meteredErrors, 422],
})
  .meta({ fieldCodes: { ...providerFieldCodes, q: { missing: 'QUERY_REQUIRED' } } })
  .input(getTopicTrendsInput)
  .output(trendReportSchema)
  .query(({ ctx, input }) =>
    ctx.services.trends.reports.generate.mutate({ q: input.q, sampleSize: clampTrendSampleSize(input.sampleSize), mode: input.mode }),
  );
