import { z } from 'zod';
import { operationSchema } from '@vrs/contracts';
import { protectedProcedure } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const getOperation = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/operations/{id}',
      operationId: 'getOperation',
      tags: ['Research'],
      summary: 'Get a stored answer or report',
      description: 'The answer or report an `operationId` names, as it was returned, with what it was asked.',
      protect: true,
      errorResponses: [...authenticatedErrors, 404],
    },
    auth: { scopes: ['data:read'] },
  })
  .input(z.object({ id: z.string().min(1).max(100) }))
  .output(operationSchema)
  .query(({ ctx, input }) => ctx.services.research.operations.get.query({ accountId: ctx.principal.accountId, operationId: input.id }));
