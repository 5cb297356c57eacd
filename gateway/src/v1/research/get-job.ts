import { jobSchema, getJobInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const getJob = protectedOperation({
  method: 'GET',
  path: '/jobs/{id}',
  operationId: 'getJob',
  tags: ['Research'],
  summary: 'Get a job',
  description:
    'Status (`pending` — `queued` before ADR 0092 —, `running`, `completed`, `failed`, `cancelled`), `creditsHeld` while it runs, `progress {done, total}` in videos, each handled video once, warnings and errors.',
  errorResponses: [...authenticatedErrors, 404],
})
  .input(getJobInput)
  .output(jobSchema)
  .query(({ ctx, input }) => ctx.services.research.jobs.get.query({ accountId: ctx.principal.accountId, jobId: input.id }));
