import { issueAuthorizationCodeInputSchema, issuedAuthorizationCodeSchema, oauthCodePrefix } from '@vrs/contracts';
import { AppError, newId, procedure } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';
import { generateToken, hashToken } from '../../identity/tokens';

const purgeAfterMs = 86_400_000;

/**
 * The code a person's approval on /oauth/authorize yields (RFC 6749 §4.1.2): bound to the client,
 * the exact redirect URI, the PKCE challenge and the approved scopes; single-use, ≤ 60 s.
 */
export function issueAuthorizationCode({ repo }: BillingDeps) {
  return procedure
    .input(issueAuthorizationCodeInputSchema)
    .output(issuedAuthorizationCodeSchema)
    .mutation(async ({ input }) => {
      if (!(await repo.accounts.findActive(input.accountId))) throw new AppError('ACCOUNT_NOT_FOUND');
      const now = repo.clock();
      const code = generateToken(oauthCodePrefix);
      const expiresAt = new Date(now + input.ttlSeconds * 1000).toISOString();
      await repo.oauthCodes.purge(new Date(now).toISOString());
      await repo.oauthCodes.insert({
        _id: newId('aoc'),
        codeHash: hashToken(code),
        clientId: input.clientId,
        accountId: input.accountId,
        redirectUri: input.redirectUri,
        codeChallenge: input.codeChallenge,
        scopes: input.scopes,
        createdAt: new Date(now).toISOString(),
        expiresAt,
        purgeAt: new Date(now + input.ttlSeconds * 1000 + purgeAfterMs).toISOString(),
        usedAt: null,
        sessionId: null,
      });
      return { code, expiresAt };
    });
}
