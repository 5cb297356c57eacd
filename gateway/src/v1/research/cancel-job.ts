import { jobSchema, cancelJobInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const cancelJob = protectedOperation({
  method: 'POST',
  path: '/jobs/{id}/cancel',
  operationId: 'cancelJob',
  tags: ['Research'],
  summary: 'Cancel a job',
  description:
    'Stops a pending or running job before its next video; evidence already imported stays. Cancelling a cancelled job answers it again; a finished job is 409 `JOB_NOT_CANCELLABLE`.',
  errorResponses: [...authenticatedErrors, 404, 409],
})
  .input(cancelJobInput)
  .output(jobSchema)
  .mutation(({ ctx, input }) => ctx.services.research.jobs.cancel.mutate({ accountId: ctx.principal.accountId, jobId: input.id }));
