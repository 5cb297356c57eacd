import { scopeSchema, sessionCredentialKinds, sessionListSchema, listAuthSessionsInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const listAuthSessions = protectedOperation({
  method: 'GET',
  path: '/auth/sessions',
  operationId: 'listAuthSessions',
  tags: ['Authentication'],
  summary: "The account's web and CLI sessions, newest first; `current` marks the caller's",
  errorResponses: [...authenticatedErrors, 422],
})
  .input(listAuthSessionsInput)
  .output(sessionListSchema)
  .query(async ({ ctx: { principal, services }, input }) => {
    const page = await services.billing.sessions.list.query({ accountId: principal.accountId, ...input });
    return {
      ...page,
      data: page.data.map((session) => ({
        ...session,
        kind: sessionCredentialKinds[session.kind],
        scopes: session.scopes ?? [...scopeSchema.options],
        current: session.id === principal.sessionId,
      })),
    };
  });
