import { z } from 'zod';
import { generateVideoPlanInputSchema, trendsPlanGenerated, videoPlanSchema, type VideoPlan } from '@vrs/contracts';
import { AppError, newUuid, procedure, requestLogFields } from '@vrs/kit';
import { describeSample, groundVideoIds } from '../../report/sample-prompt';
import type { TrendsDeps } from '../../trends-deps';

const planDraftSchema = z.object({
  angle: z.string().min(1).max(500),
  audience: z.string().min(1).max(500),
  hook: z.string().min(1).max(500),
  recommendedDurationSeconds: z.number().int().min(15).max(7200),
  outline: z
    .array(z.object({ section: z.string().min(1), goal: z.string().min(1) }))
    .min(2)
    .max(10),
  titleIdeas: z.array(z.string().min(1)).min(2).max(8),
  hashtags: z.array(z.string().min(1)).max(10),
  differentiation: z.array(z.string().min(1)).min(1).max(6),
  evidence: z
    .array(z.object({ claim: z.string().min(1), videoIds: z.array(z.string()).min(1).max(10).describe('videoId values of the sample') }))
    .min(1)
    .max(8),
  caveats: z.array(z.string()).max(6),
});

const system =
  'You are a YouTube strategist. From the trend report of a topic, plan the next video to make: angle, audience, hook, ' +
  'duration, outline, titles, hashtags and how it stands apart. Back each evidence claim with videoId values from the report only.';

/**
 * A video plan from a trend report (`model` names the model that wrote it). Evidence may cite only the
 * report's videos: unknown ids are removed, a claim left without any is dropped (the caveats say so).
 */
export const generatePlan = ({ llm, clock, bus, logger, plans }: TrendsDeps) =>
  procedure
    .input(generateVideoPlanInputSchema)
    .output(videoPlanSchema)
    .mutation(async ({ input: { accountId, report }, ctx }): Promise<VideoPlan> => {
      if (!llm) throw new AppError('AI_UNAVAILABLE', 'No AI model is configured, so no plan can be written.');
      const { object, model } = await llm.generateObject({
        schema: planDraftSchema,
        system,
        prompt: describeSample(report),
        trace: ctx.trace,
      });
      const grounded = groundVideoIds(object.evidence, report.videos);
      const plan: VideoPlan = {
        provider: 'youtube',
        model,
        generatedAt: clock.now().toISOString(),
        ...object,
        evidence: grounded.claims,
        caveats: [...object.caveats, ...grounded.warnings],
        operationId: newUuid(),
      };
      // Stored before it is returned, so the operationId resolves as soon as the caller has it.
      const { operationId, ...returned } = plan;
      await plans.save(accountId, { id: operationId, kind: 'plan', query: report.query, createdAt: plan.generatedAt, ...returned });
      await bus
        .publish(
          trendsPlanGenerated,
          { operationId: plan.operationId, query: report.query, model, generatedAt: plan.generatedAt },
          { requestId: ctx.requestId, trace: ctx.trace },
        )
        .catch((error: unknown) =>
          logger.error({ err: error, operationId: plan.operationId, ...requestLogFields(ctx) }, 'trends.plan.generated not published'),
        );
      return plan;
    });
