import { citedAnswerSchema, createReportInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { meteredErrors } from '../errors';

export const createReport = protectedOperation({
  method: 'POST',
  path: '/reports',
  operationId: 'createReport',
  tags: ['Research'],
  summary: 'Generate an evidence-first report',
  description:
    "Retrieves the project's evidence for the prompt first (the same ranking as project search), then writes the report from it alone: every citation is a stored Evidence item of the project, and claims are marked `[n]` by citation `index`. Same modes, warnings and 503 `AI_UNAVAILABLE` as answers. Readable again with `GET /v1/operations/{operationId}`.",
  errorResponses: [...meteredErrors, 404, 422],
})
  .input(createReportInput)
  .output(citedAnswerSchema)
  .mutation(({ ctx, input }) =>
    ctx.services.research.reports.create.mutate({ accountId: ctx.principal.accountId, projectId: input.projectId, prompt: input.prompt }),
  );
