import { jobListSchema, listProjectJobsInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const listProjectJobs = protectedOperation({
  method: 'GET',
  path: '/projects/{projectId}/jobs',
  operationId: 'listProjectJobs',
  tags: ['Research'],
  summary: "List a project's import jobs",
  description:
    'Newest first, in any status. Page with `limit` and `cursor`: pass each page’s `nextCursor` as `cursor` while `hasMore` is true.',
  errorResponses: [...authenticatedErrors, 404, 422],
})
  .input(listProjectJobsInput)
  .output(jobListSchema)
  .query(({ ctx, input }) => ctx.services.research.jobs.list.query({ accountId: ctx.principal.accountId, ...input }));
