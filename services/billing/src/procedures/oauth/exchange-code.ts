import { createHash, timingSafeEqual } from 'node:crypto';
import { exchangeAuthorizationCodeInputSchema, oauthTokenSetSchema } from '@vrs/contracts';
import { AppError, procedure, requestLogFields } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';
import { openOAuthGrant } from '../../identity/open-oauth-grant';
import { hashToken } from '../../identity/tokens';

const invalidGrant = (why: string) => new AppError('OAUTH_INVALID_GRANT', why, { error: 'invalid_grant' });

/** RFC 7636 §4.6: BASE64URL(SHA256(verifier)) must equal the challenge, compared in constant time. */
function verifierMatches(verifier: string, challenge: string): boolean {
  if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/**
 * The authorization-code grant (RFC 6749 §4.1.3, RFC 7636): the code must be unused, unexpired,
 * issued to this client for this redirect URI, and the verifier must match its challenge. A code
 * presented a second time revokes the grant the first exchange opened (RFC 6749 §4.1.2).
 */
export function exchangeAuthorizationCode({ repo, logger }: BillingDeps) {
  return procedure
    .input(exchangeAuthorizationCodeInputSchema)
    .output(oauthTokenSetSchema)
    .mutation(async ({ input, ctx }) => {
      const now = repo.clock();
      const code = await repo.oauthCodes.byCodeHash(hashToken(input.code));
      if (!code) throw invalidGrant('The authorization code is not known.');
      if (code.usedAt !== null) {
        if (code.sessionId) await repo.sessions.revoke(code.accountId, code.sessionId);
        logger.warn({ clientId: code.clientId, sessionId: code.sessionId, ...requestLogFields(ctx) }, 'authorization code replayed');
        throw invalidGrant('The authorization code was already used; the tokens issued for it are revoked.');
      }
      if (Date.parse(code.expiresAt) <= now) throw invalidGrant('The authorization code has expired.');
      if (code.clientId !== input.clientId) throw invalidGrant('The authorization code was issued to another client.');
      if (code.redirectUri !== input.redirectUri) throw invalidGrant('redirect_uri differs from the authorization request.');
      if (!verifierMatches(input.codeVerifier, code.codeChallenge)) throw invalidGrant('code_verifier does not match the code_challenge.');
      const claimed = await repo.oauthCodes.claim(code._id, new Date(now).toISOString());
      if (!claimed) throw invalidGrant('The authorization code was already used.');
      if (!(await repo.accounts.findActive(code.accountId))) throw invalidGrant('The account that approved this code no longer exists.');
      const client = await repo.oauthClients.findById(code.clientId);
      const tokens = await openOAuthGrant(repo, {
        accountId: code.accountId,
        clientId: code.clientId,
        clientName: client?.clientName ?? null,
        scopes: code.scopes,
        accessTokenTtlSeconds: input.accessTokenTtlSeconds,
        grantTtlSeconds: input.grantTtlSeconds,
        ip: input.ip,
      });
      await repo.oauthCodes.recordSession(code._id, tokens.sessionId);
      logger.info({ clientId: code.clientId, sessionId: tokens.sessionId, ...requestLogFields(ctx) }, 'authorization code exchanged');
      return tokens;
    });
}
