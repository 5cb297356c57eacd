import { authSessionSchema, scopeSchema, getAuthSessionInput } from '@vrs/contracts';
import type { Principal } from '../../context';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

const credentialKinds = {
  bearerApiKey: 'api_key',
  apiKey: 'api_key',
  sessionCookie: 'session_cookie',
  cliSession: 'cli_session',
  oauthToken: 'oauth',
  demoUser: 'demo_user',
} as const satisfies Record<Principal['scheme'], string>;

export const getAuthSession = protectedOperation({
  method: 'GET',
  path: '/auth/session',
  operationId: 'getAuthSession',
  tags: ['Authentication'],
  summary: 'Who am I: the account, the credential and its scopes (and the CSRF token of a cookie session)',
  errorResponses: [...authenticatedErrors],
})
  .input(getAuthSessionInput)
  .output(authSessionSchema)
  .query(async ({ ctx: { principal, services } }) => {
    const account = await services.billing.accounts.get.query({ accountId: principal.accountId });
    return {
      account: { id: account.id, email: account.email, name: account.name },
      credential: { kind: credentialKinds[principal.scheme], id: principal.keyId ?? principal.sessionId ?? null },
      scopes: principal.scopes === 'owner' ? [...scopeSchema.options] : [...principal.scopes],
      ...(principal.cookieSession ? { csrfToken: principal.cookieSession.csrfToken } : {}),
    };
  });
