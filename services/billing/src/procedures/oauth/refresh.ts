import { oauthAccessTokenPrefix, oauthRefreshTokenPrefix, oauthTokenSetSchema, refreshOAuthGrantInputSchema } from '@vrs/contracts';
import { AppError, newId, procedure } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';
import { generateToken, hashToken } from '../../identity/tokens';

const invalidGrant = (why: string) => new AppError('OAUTH_INVALID_GRANT', why, { error: 'invalid_grant' });

/**
 * The refresh grant with rotation (OAuth 2.1 §4.3, RFC 9700 §4.14.2): each refresh token works
 * once and is replaced; one presented again — by an attacker or the client it was stolen from —
 * revokes the whole grant, so both lose access and the person signs in again.
 */
export function refreshOAuthGrant({ repo, logger }: BillingDeps) {
  return procedure
    .input(refreshOAuthGrantInputSchema)
    .output(oauthTokenSetSchema)
    .mutation(async ({ input, ctx }) => {
      const now = repo.clock();
      const nowIso = new Date(now).toISOString();
      const presented = await repo.oauthRefreshTokens.byTokenHash(hashToken(input.refreshToken));
      if (!presented) throw invalidGrant('The refresh token is not known.');
      if (presented.clientId !== input.clientId) throw invalidGrant('The refresh token was issued to another client.');
      const revokeFamily = async () => {
        await repo.sessions.revoke(presented.accountId, presented.sessionId);
        logger.warn(
          { clientId: presented.clientId, sessionId: presented.sessionId, requestId: ctx.requestId },
          'refresh token reused: grant revoked',
        );
        return invalidGrant('The refresh token was already used; the grant is revoked. Sign in again.');
      };
      if (presented.usedAt !== null) throw await revokeFamily();
      if (presented.expiresAt <= nowIso) throw invalidGrant('The refresh token has expired.');
      if (input.scopes?.some((scope) => !presented.scopes.includes(scope)))
        throw new AppError('OAUTH_INVALID_SCOPE', 'A refresh may not ask for scopes beyond the grant.', { error: 'invalid_scope' });
      if (!(await repo.oauthRefreshTokens.claim(presented._id, nowIso))) throw await revokeFamily();

      const accessToken = generateToken(oauthAccessTokenPrefix);
      const accessEnd = new Date(Math.min(now + input.accessTokenTtlSeconds * 1000, Date.parse(presented.expiresAt))).toISOString();
      const session = await repo.sessions.replaceAccessToken(presented.sessionId, hashToken(accessToken), accessEnd);
      if (!session) throw invalidGrant('The grant has ended (revoked or expired).');
      const refreshToken = generateToken(oauthRefreshTokenPrefix);
      // The next token of the same grant: the presented one's session, client, account, scopes and end.
      await repo.oauthRefreshTokens.insert({
        ...presented,
        _id: newId('ort'),
        tokenHash: hashToken(refreshToken),
        createdAt: nowIso,
        usedAt: null,
      });
      return { accessToken, refreshToken, accessTokenExpiresAt: accessEnd, scopes: presented.scopes, sessionId: session._id };
    });
}
