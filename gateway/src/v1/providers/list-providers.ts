import { providerListSchema, listProvidersInput } from '@vrs/contracts';
import { protectedProcedure } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const listProviders = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/providers',
      operationId: 'listProviders',
      tags: ['Providers'],
      summary: 'Supported video platforms and their capabilities',
      protect: true,
      errorResponses: [...authenticatedErrors],
    },
  })
  .input(listProvidersInput)
  .output(providerListSchema)
  .query(({ ctx }) => ctx.services.provider.providers.list.query());
