import { TRPCClientError } from '@trpc/client';
import { operationSchema, getOperationInput } from '@vrs/contracts';
import { fromServiceError } from '../../errors/to-app-error';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

const isNotFound = (error: unknown) => error instanceof TRPCClientError && fromServiceError(error).code === 'OPERATION_NOT_FOUND';

export const getOperation = protectedOperation({
  method: 'GET',
  path: '/operations/{id}',
  operationId: 'getOperation',
  tags: ['Research'],
  summary: 'Get a stored answer, report or video plan',
  description:
    'Whatever an `operationId` we returned names — a cited answer or report (`kind` `answer` or `report`, with what it was asked) or a video plan (`kind` `plan`, with the topic of its report) — as it was returned. Another account’s operation is a 404 like an unknown one.',
  errorResponses: [...authenticatedErrors, 404],
})
  .input(getOperationInput)
  .output(operationSchema)
  // Answers and reports live in research, plans in trends; an id is looked up in one, then the other.
  .query(async ({ ctx, input }) => {
    const ref = { accountId: ctx.principal.accountId, operationId: input.id };
    try {
      return await ctx.services.research.operations.get.query(ref);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    return ctx.services.trends.plans.get.query(ref);
  });
