import { rotatedSessionSchema, rotateSessionInputSchema, webSessionTokenPrefix, cliSessionTokenPrefix } from '@vrs/contracts';
import { procedure, requestLogFields } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';
import { generateToken, hashToken } from '../../identity/tokens';

/**
 * Replaces a session's token with a new one; the old one keeps working for `graceMs` so requests
 * already in flight with it succeed. Null when `token` is no longer the current one (a parallel
 * request rotated first) or the session has ended: the caller keeps the token it has.
 */
export function rotateSession({ repo, logger }: BillingDeps) {
  return procedure
    .input(rotateSessionInputSchema)
    .output(rotatedSessionSchema)
    .mutation(async ({ input, ctx }) => {
      const prefix = input.token.startsWith(cliSessionTokenPrefix) ? cliSessionTokenPrefix : webSessionTokenPrefix;
      const token = generateToken(prefix);
      const rotated = await repo.sessions.rotate(input.sessionId, hashToken(input.token), hashToken(token), input.graceMs);
      if (!rotated) return null;
      logger.debug({ sessionId: rotated._id, ...requestLogFields(ctx) }, 'session token rotated');
      return { token, expiresAt: rotated.expiresAt };
    });
}
