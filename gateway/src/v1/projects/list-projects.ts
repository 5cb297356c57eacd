import { z } from 'zod';
import { projectListSchema } from '@vrs/contracts';
import { protectedProcedure } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const listProjects = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/projects',
      operationId: 'listProjects',
      tags: ['Projects'],
      summary: "List the caller's projects",
      description:
        'Newest first. Page with `limit` and `startingAfter` (the id of the last project of the previous page) while `hasMore` is true.',
      protect: true,
      errorResponses: [...authenticatedErrors, 422],
    },
    auth: { scopes: ['data:read'] },
  })
  .input(z.object({ limit: z.number().int().min(1).max(100).default(50), startingAfter: z.string().min(1).max(100).optional() }))
  .output(projectListSchema)
  .query(({ ctx, input }) => ctx.services.research.projects.list.query({ accountId: ctx.principal.accountId, ...input }));
