import { jobSchema, createImportInput } from '@vrs/contracts';
import { idempotencyHeaders, idempotencyKeyOf } from '../../idempotency/idempotency-key';
import { protectedOperation } from '../../trpc';
import { meteredErrors } from '../errors';

export const createImport = protectedOperation({
  method: 'POST',
  path: '/projects/{projectId}/imports',
  operationId: 'createImport',
  tags: ['Research'],
  summary: 'Import videos into a project',
  description:
    "Queues a job that imports a video, a list of videos, a playlist or a channel's recent uploads, or a search's top results into the project: metadata, transcript chunks (a few sentences each, with `startMs`) and optionally top comments, as evidence with `provider`, `entityId` and a `sourceKey` naming the unit (`youtube:video:<id>:metadata`, `…:transcript:<startMs>`, `…:comment:<commentId>`). Re-importing updates those items in place. Answers 202 with the job; follow it with `GET /v1/jobs/{id}`. Its price is held (`X-Credits-Charged: 0`) and settled when the job ends: charged in full if it imported at least one video, refunded if it imported nothing. Accepts `Idempotency-Key`.",
  successDescription: 'The job, `pending` (or, for a replayed Idempotency-Key, the first response).',
  requestHeaders: idempotencyHeaders(),
  errorResponses: [...meteredErrors, 404, 409, 422],
})
  .meta({ handsHoldToJob: true })
  .input(createImportInput)
  .output(jobSchema)
  .mutation(async ({ ctx, input }) => {
    const { job, replayed } = await ctx.services.research.imports.create.mutate({
      accountId: ctx.principal.accountId,
      projectId: input.projectId,
      source: input.source,
      include: input.include,
      idempotencyKey: idempotencyKeyOf(ctx),
      credits: ctx.credits.hold,
    });
    // A new job settles the hold when it ends (ADR 0019); a replay serves the first response at the cached price (nothing).
    if (replayed) ctx.credits.variant = 'cached';
    else ctx.credits.heldByJob = true;
    return job;
  });
