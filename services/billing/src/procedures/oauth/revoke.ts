import { oauthRefreshTokenPrefix, revokedOAuthTokenSchema, revokeOAuthTokenInputSchema } from '@vrs/contracts';
import { procedure, requestLogFields } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';
import { hashToken } from '../../identity/tokens';

/**
 * RFC 7009 revocation of an access or refresh token: either ends its whole grant (the session), so
 * no token of it works afterwards. A token that is unknown, already ended, or another client's
 * changes nothing; the gateway answers 200 all the same (§2.2), so the answer reveals nothing.
 */
export function revokeOAuthToken({ repo, logger }: BillingDeps) {
  return procedure
    .input(revokeOAuthTokenInputSchema)
    .output(revokedOAuthTokenSchema)
    .mutation(async ({ input, ctx }) => {
      const hash = hashToken(input.token);
      let grant: { accountId: string; sessionId: string } | null = null;
      if (input.token.startsWith(oauthRefreshTokenPrefix)) {
        const refresh = await repo.oauthRefreshTokens.byTokenHash(hash);
        if (refresh?.clientId === input.clientId) grant = { accountId: refresh.accountId, sessionId: refresh.sessionId };
      } else {
        const found = await repo.sessions.findLiveByTokenHash(hash);
        const session = found?.session;
        if (session?.kind === 'oauth' && session.clientId === input.clientId)
          grant = { accountId: session.accountId, sessionId: session._id };
      }
      const revoked = grant ? await repo.sessions.revoke(grant.accountId, grant.sessionId) : false;
      if (revoked) logger.info({ clientId: input.clientId, sessionId: grant?.sessionId, ...requestLogFields(ctx) }, 'oauth grant revoked');
      return { revoked };
    });
}
