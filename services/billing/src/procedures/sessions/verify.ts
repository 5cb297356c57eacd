import { maxSessionTokenLength, verifiedSessionSchema, verifySessionInputSchema } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';
import { hashToken } from '../../identity/tokens';

/**
 * The session a token belongs to, or null for any token that does not authenticate: unknown,
 * revoked, expired, a replaced token past its grace, or an account that was deleted. `rotate` is
 * true when the token is a web session's current one and older than `rotateAfterMs`.
 */
export function verifySession({ repo }: BillingDeps) {
  return procedure
    .input(verifySessionInputSchema)
    .output(verifiedSessionSchema)
    .query(async ({ input }) => {
      if (input.token.length > maxSessionTokenLength) return null;
      const found = await repo.sessions.findLiveByTokenHash(hashToken(input.token));
      if (!found) return null;
      const { session, current } = found;
      if (!(await repo.accounts.findActive(session.accountId))) return null;
      const age = repo.clock() - Date.parse(session.lastRotatedAt);
      return {
        sessionId: session._id,
        accountId: session.accountId,
        kind: session.kind,
        scopes: session.scopes,
        csrfToken: session.csrfToken,
        // An OAuth access token ends before its grant (ADR 0095); callers cache no longer than this.
        expiresAt: session.tokenExpiresAt ?? session.expiresAt,
        rotate: session.kind === 'web' && current && input.rotateAfterMs !== undefined && age >= input.rotateAfterMs,
      };
    });
}
