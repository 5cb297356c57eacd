import { exportSchema, createExportInput } from '@vrs/contracts';
import { idempotencyHeaders, idempotencyKeyOf } from '../../idempotency/idempotency-key';
import { protectedOperation } from '../../trpc';
import { meteredErrors } from '../errors';

export const createExport = protectedOperation({
  method: 'POST',
  path: '/exports',
  operationId: 'createExport',
  tags: ['Exports'],
  summary: 'Create a project export',
  description:
    "Starts writing the project's evidence as a `json`, `csv` or `markdown` file and answers 202 with the export. Its price is held (`X-Credits-Charged: 0`) and charged once the file is ready, refunded if writing it failed. The export is `pending` until its file is written (`completed`; before ADR 0092 `ready`) or the writing failed (`failed`); poll `GET /v1/exports/{id}`, then download it from `GET /v1/exports/{id}/download`. Accepts `Idempotency-Key`.",
  successDescription: 'The export, pending (or, for a replayed Idempotency-Key, the first response).',
  requestHeaders: idempotencyHeaders(),
  errorResponses: [...meteredErrors, 404, 409, 422],
})
  .meta({ handsHoldToJob: true })
  .input(createExportInput)
  .output(exportSchema)
  .mutation(async ({ ctx, input }) => {
    const { export: record, replayed } = await ctx.services.research.exports.create.mutate({
      accountId: ctx.principal.accountId,
      projectId: input.projectId,
      format: input.format,
      idempotencyKey: idempotencyKeyOf(ctx),
      credits: ctx.credits.hold,
    });
    // A new export settles the hold once written (ADR 0019); a replay serves the first response at the cached price (nothing).
    if (replayed) ctx.credits.variant = 'cached';
    else ctx.credits.heldByJob = true;
    return record;
  });
