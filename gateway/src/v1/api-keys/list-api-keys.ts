import { apiKeyListSchema, listApiKeysInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const listApiKeys = protectedOperation({
  method: 'GET',
  path: '/api-keys',
  operationId: 'listApiKeys',
  tags: ['Authentication'],
  summary: "List the account's API keys",
  description:
    'Newest first; never the key itself, only its `prefix`. Expired keys are listed (they fail with 401 `API_KEY_EXPIRED`) until deleted; deleted keys are not. `lastUsedAt` is recorded in batches, so it may lag a use by up to a minute. Page with `limit` and `cursor`: pass each page’s `nextCursor` as `cursor` while `hasMore` is true.',
  errorResponses: [...authenticatedErrors, 422],
})
  .input(listApiKeysInput)
  .output(apiKeyListSchema)
  .query(({ ctx, input }) => ctx.services.billing.apiKeys.list.query({ accountId: ctx.principal.accountId, ...input }));
