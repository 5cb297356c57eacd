import { videoPlanSchema, generateVideoPlanInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { meteredErrors } from '../errors';

export const generateVideoPlan = protectedOperation({
  method: 'POST',
  path: '/trends/plan',
  operationId: 'generateVideoPlan',
  tags: ['Discovery'],
  summary: 'Generate an AI video plan from trend signals',
  description:
    'The body is a trend report as the trends operation returns it (unknown enum values are kept). The primary model writes the plan; when it fails or times out the fallback model does, and `model` names the one that produced it. Every `evidence[].videoIds` entry is a video of the report: unknown ids are removed and a claim left without any is dropped (the caveats say so). No model configured or both failing: 503 `AI_UNAVAILABLE`, credits refunded.',
  errorResponses: [...meteredErrors, 422],
})
  .input(generateVideoPlanInput)
  .output(videoPlanSchema)
  .mutation(({ ctx, input }) => ctx.services.trends.plans.generate.mutate({ accountId: ctx.principal.accountId, report: input.report }));
