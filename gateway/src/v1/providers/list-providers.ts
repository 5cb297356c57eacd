import { providerListSchema, listProvidersInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const listProviders = protectedOperation({
  method: 'GET',
  path: '/providers',
  operationId: 'listProviders',
  tags: ['Providers'],
  summary: 'Supported video platforms and their capabilities',
  errorResponses: [...authenticatedErrors],
})
  .input(listProvidersInput)
  .output(providerListSchema)
  .query(({ ctx }) => ctx.services.provider.providers.list.query());
