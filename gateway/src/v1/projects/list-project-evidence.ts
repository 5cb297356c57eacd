import { evidenceListSchema, listProjectEvidenceInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const listProjectEvidence = protectedOperation({
  method: 'GET',
  path: '/projects/{projectId}/evidence',
  operationId: 'listProjectEvidence',
  tags: ['Projects'],
  summary: "List a project's saved evidence",
  description:
    'Every saved item (material you added and what imports made), newest first. Page with `limit` and `cursor`: pass each page’s `nextCursor` as `cursor` while `hasMore` is true.',
  errorResponses: [...authenticatedErrors, 404, 422],
})
  .input(listProjectEvidenceInput)
  .output(evidenceListSchema)
  .query(({ ctx, input }) => ctx.services.research.evidence.list.query({ accountId: ctx.principal.accountId, ...input }));
