import { z } from 'zod';
import { accountIdSchema } from './billing';
import { providerParam } from './provider';
import { providerIdSchema, thumbnailSchema, uint } from './shapes';

/*
 * Shapes of the trends service (methodology 3.0, docs/methodology/trends-3.0.md). The contract fixes
 * the field names; value lists, the pattern shapes, the plan and the insights are ours (ADR 0010).
 */

export const trendsMethodologyVersion = '3.0';
export const trendModes = ['ai', 'deterministic'] as const;
export const trendBands = ['Breakout', 'Rising', 'Steady', 'Cooling'] as const;
export const confidenceLevels = ['low', 'medium', 'high'] as const;
export const signalSources = ['observed', 'lifetime', 'search_card'] as const;
export const durationBuckets = ['shorts', 'short', 'medium', 'long'] as const;
export const titlePatternNames = ['question', 'number', 'howTo', 'list', 'brackets', 'lengthShort', 'lengthMedium', 'lengthLong'] as const;
export const minTrendSampleSize = 8;
export const maxTrendSampleSize = 30;
export const defaultTrendSampleSize = 20;

const withVelocity = () => ({ count: uint(), share: z.number().min(0).max(1), medianVelocity: z.number().min(0) });
const citing = () => z.object({ title: z.string(), description: z.string(), videoIds: z.array(z.string()) });

function trendVideo() {
  return z.object({
    id: z.string().min(1),
    title: z.string(),
    channel: z.object({ id: z.string(), name: z.string() }),
    thumbnails: z.array(thumbnailSchema),
    description: z.string(),
    viewCount: uint(),
    signalSource: z
      .enum(signalSources)
      .describe(
        '`observed` when an earlier snapshot of the video gave the rate, else `lifetime`; `search_card` when its enrichment failed and it was scored from its search card (views, age text, channel, duration: no likes or comments, age estimated).',
      ),
    confidenceScore: uint().max(100),
    hashtags: z.array(z.string()),
    keywords: z.array(z.string()),
    effectiveViewsPerHour: z.number().min(0),
    velocityRank: z.number().int().min(1),
    percentiles: z.object({
      velocity: uint().max(100),
      freshness: uint().max(100),
      channelPerformance: uint().max(100),
      engagement: uint().max(100),
      acceleration: uint().max(100),
    }),
    trendScore: uint().max(100),
    trendBand: z.enum(trendBands),
    url: z.string(),
    durationSeconds: uint(),
    publishedTimeText: z.string(),
    publishDate: z.string(),
    ageHours: z.number().min(0),
    viewsPerHour: z.number().min(0),
    observedViewsPerHour: z.number().optional().describe('Observed signals only: views gained per hour since the earlier snapshot.'),
    previousViewsPerHour: z.number().optional().describe('Observed signals only: the rate before that snapshot.'),
    accelerationPercent: z.number().optional(),
    observationHours: z.number().optional(),
    viewDelta: z.number().int().optional(),
    likeDelta: z.number().int().optional(),
    commentDelta: z.number().int().optional(),
    commentCount: uint(),
    likeCount: uint(),
    engagementRate: z.number().min(0),
    channelBaselineViewsPerHour: z.number().min(0).optional().describe('Absent when the channel could not be read.'),
    channelLift: z.number().min(0),
    searchRank: z.number().int().min(1),
  });
}

const insightsDescription = 'Mode `ai` only; omitted (with a warning) when no model is configured or the model fails.';

function trendReport() {
  return z.object({
    provider: providerIdSchema,
    query: z.string().min(1).max(200),
    generatedAt: z.iso.datetime(),
    sampleSize: uint(),
    methodologyVersion: z.string(),
    methodology: z.string(),
    sample: z.object({
      candidateVideos: uint(),
      enrichedVideos: uint(),
      searchCardVideos: uint().describe('Videos whose enrichment failed, scored from their search card (`signalSource` `search_card`).'),
      channels: uint(),
      observedVideos: uint(),
      recentCandidates: uint(),
      recentVideos: uint(),
    }),
    window: z.object({ days: z.number().int().min(1), recentCandidatesSampled: uint(), recentVideosEnriched: uint() }),
    confidence: z.object({ score: uint().max(100), reasons: z.array(z.string()), level: z.enum(confidenceLevels) }),
    summary: z.object({
      totalViews: z.number().min(0),
      medianViewsPerHour: z.number().min(0),
      publishedLast7Days: z.number().min(0),
      breakoutCount: z.number().min(0),
      acceleratingCount: z.number().min(0),
      medianObservedViewsPerHour: z.number(),
      medianRecentViewsPerHour: z.number().min(0),
      recentVelocityLift: z.number().min(0),
    }),
    videos: z.array(trendVideo()),
    hashtags: z.array(z.object({ tag: z.string(), ...withVelocity() })),
    titlePatterns: z.array(z.object({ pattern: z.enum(titlePatternNames), ...withVelocity() })),
    durationMix: z.array(z.object({ bucket: z.enum(durationBuckets), ...withVelocity() })),
    plan: z.object({
      format: z.enum(durationBuckets).describe('The duration bucket with the highest median velocity.'),
      titlePatterns: z.array(z.string()).describe('Title patterns whose median velocity beats the sample median.'),
      hashtags: z.array(z.string()),
      steps: z.array(z.string()),
    }),
    warnings: z.array(z.string()),
    insights: z
      .object({ model: z.string(), themes: z.array(citing()), contentGaps: z.array(citing()) })
      .optional()
      .describe(insightsDescription),
  });
}

export const trendReportSchema = trendReport().meta({ id: 'TrendReport' });
export type TrendReport = z.infer<typeof trendReportSchema>;
export type TrendVideo = TrendReport['videos'][number];
export type TrendBand = (typeof trendBands)[number];
export type DurationBucket = (typeof durationBuckets)[number];
export type TitlePatternName = (typeof titlePatternNames)[number];

/**
 * A report given back to the plan operation: the trends response, with every enumeration a plain
 * string (a value a later methodology adds is kept, not refused) and the fields only the trends
 * response carries (signalSource, trendBand, confidence.level) optional, and what an older report lacks (sample.searchCardVideos).
 * As a request body it is strict at every depth: a key the report does not have is UNKNOWN_PARAMETER.
 */
export const trendReportInput = () => {
  const { shape } = trendReport();
  const video = trendVideo();
  const insights = shape.insights.unwrap();
  return z
    .strictObject({
      ...shape,
      sample: shape.sample.extend({ searchCardVideos: uint().optional() }).strict(),
      window: shape.window.strict(),
      confidence: shape.confidence.extend({ level: z.string().optional() }).strict(),
      summary: shape.summary.strict(),
      videos: z.array(
        video
          .extend({
            channel: video.shape.channel.strict(),
            thumbnails: z.array(thumbnailSchema.strict()),
            percentiles: video.shape.percentiles.strict(),
            signalSource: z.string().optional(),
            trendBand: z.string().optional(),
          })
          .strict(),
      ),
      hashtags: z.array(shape.hashtags.element.strict()),
      titlePatterns: z.array(z.strictObject({ pattern: z.string(), ...withVelocity() })),
      durationMix: z.array(z.strictObject({ bucket: z.string(), ...withVelocity() })),
      plan: shape.plan.extend({ format: z.string() }).strict(),
      insights: insights
        .extend({ themes: z.array(citing().strict()), contentGaps: z.array(citing().strict()) })
        .strict()
        .optional()
        .describe(insightsDescription),
    })
    .meta({ id: 'TrendReportInput' });
};
export const trendReportInputSchema = trendReportInput();
export type TrendReportInput = z.infer<typeof trendReportInputSchema>;

export const videoPlanSchema = z
  .object({
    provider: providerIdSchema,
    model: z.string().describe('The model that wrote the plan: the primary, or the fallback when the primary failed.'),
    generatedAt: z.iso.datetime(),
    angle: z.string(),
    audience: z.string(),
    hook: z.string(),
    recommendedDurationSeconds: z.number(),
    outline: z.array(z.object({ section: z.string(), goal: z.string() })),
    titleIdeas: z.array(z.string()),
    hashtags: z.array(z.string()),
    differentiation: z.array(z.string()),
    evidence: z.array(z.object({ claim: z.string(), videoIds: z.array(z.string()) })).describe('Every id is a video of the report.'),
    caveats: z.array(z.string()),
    operationId: z.uuid(),
  })
  .meta({ id: 'VideoPlan' });
export type VideoPlan = z.infer<typeof videoPlanSchema>;

/** A generated plan read again by its operationId: the plan as it was returned, and what it was made for. */
export const planOperationSchema = videoPlanSchema
  .omit({ operationId: true })
  .extend({
    id: z.uuid(),
    kind: z.literal('plan'),
    query: z.string().describe('The topic of the trend report the plan was made from.'),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'PlanOperation' });
export type PlanOperation = z.infer<typeof planOperationSchema>;

/* Internal procedure I/O of the trends service. */

export const trendTopic = () => z.string().trim().min(1).max(200);

/* Each public operation's input (issue 38); trends' procedure for the plan extends it with the account. */

export const getTopicTrendsInput = z.strictObject({
  provider: providerParam(),
  q: trendTopic().describe('The topic to research.'),
  sampleSize: z.coerce
    .number<number>()
    .int()
    .describe(
      `Videos to enrich: values outside ${minTrendSampleSize}–${maxTrendSampleSize} are clamped into that range (default ${defaultTrendSampleSize}).`,
    )
    .optional(),
  mode: z.enum(trendModes).default('ai').describe('`ai` adds insights from the model; `deterministic` skips the AI analysis.'),
});
export const generateVideoPlanInput = z.strictObject({ report: trendReportInput() });

/** What getTopicTrends asks trends for: the sample size clamped by the gateway (values outside 8–30 are not refused). */
export const generateTrendReportInputSchema = z.strictObject({
  q: trendTopic(),
  sampleSize: z.number().int().min(minTrendSampleSize).max(maxTrendSampleSize).default(defaultTrendSampleSize),
  mode: z.enum(trendModes).default('ai'),
});
export const generateVideoPlanInputSchema = generateVideoPlanInput.extend({ accountId: accountIdSchema });
export const planRefInputSchema = z.strictObject({ accountId: accountIdSchema, operationId: z.string().min(1).max(100) });
/** Test-only: `now` fixes the trends clock, null lets it follow real time again. */
export const setTrendsClockInputSchema = z.strictObject({ now: z.iso.datetime().nullable() });

/** Values outside 8–30 are clamped, not refused (contract). */
export function clampTrendSampleSize(value: number | undefined): number {
  if (value === undefined || !Number.isFinite(value)) return defaultTrendSampleSize;
  return Math.min(maxTrendSampleSize, Math.max(minTrendSampleSize, Math.round(value)));
}
