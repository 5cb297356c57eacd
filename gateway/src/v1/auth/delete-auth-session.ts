import { deletedSchema, deleteAuthSessionInput } from '@vrs/contracts';
import { requireScopes } from '../../auth/require-scopes';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const deleteAuthSession = protectedOperation({
  method: 'DELETE',
  path: '/auth/sessions/{sessionId}',
  operationId: 'deleteAuthSession',
  tags: ['Authentication'],
  summary: 'Sign a web or CLI session out (its token stops working within AUTH_CACHE_TTL_MS on every replica)',
  description:
    'A session may always sign itself out (the `credential.id` of GET /auth/session; this is what `vrs logout` does). ' +
    'Signing out any other session of the account needs `account:manage` (403 INSUFFICIENT_SCOPE otherwise).',
  errorResponses: [...authenticatedErrors, 404],
})
  .input(deleteAuthSessionInput)
  .output(deletedSchema)
  .mutation(async ({ ctx: { principal, services }, input }) => {
    if (input.sessionId !== principal.sessionId) requireScopes(principal, ['account:manage']);
    await services.billing.sessions.revoke.mutate({ accountId: principal.accountId, sessionId: input.sessionId });
    return { id: input.sessionId, deleted: true as const };
  });
