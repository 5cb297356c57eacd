import { deletedSchema, deleteApiKeyInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const deleteApiKey = protectedOperation({
  method: 'DELETE',
  path: '/api-keys/{id}',
  operationId: 'deleteApiKey',
  tags: ['Authentication'],
  summary: 'Delete (revoke) an API key',
  description:
    'The key stops working at once on the gateway that served the deletion, and on every other gateway within the auth-cache time (`AUTH_CACHE_TTL_MS`, 5 s by default): requests with it then get 401 `INVALID_API_KEY`. A key may delete itself. An unknown key, another account’s, or one already deleted is 404 `API_KEY_NOT_FOUND`.',
  errorResponses: [...authenticatedErrors, 404, 422],
})
  .input(deleteApiKeyInput)
  .output(deletedSchema)
  .mutation(async ({ ctx, input }) => {
    const deleted = await ctx.services.billing.apiKeys.revoke.mutate({ accountId: ctx.principal.accountId, keyId: input.id });
    ctx.authCaches.forgetApiKey(input.id);
    return deleted;
  });
