import { pollDeviceAuthorizationInputSchema, polledDeviceAuthorizationSchema, slowDownStepSeconds } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';
import { openOAuthGrant } from '../../identity/open-oauth-grant';
import { openSession } from '../../identity/open-session';
import { hashToken } from '../../identity/tokens';

/**
 * The client's poll (RFC 8628 §3.4–3.5). Each answer but the token is an error carrying the RFC's
 * value in `details.error` (ADR 0036). Every step that could race is one conditional update: of
 * polls within the interval only one is recorded (the others get slow_down, the interval grows for
 * good), and exactly one poll claims an approved code and opens its session.
 */
export function pollDeviceAuthorization({ repo, logger }: BillingDeps) {
  return procedure
    .input(pollDeviceAuthorizationInputSchema)
    .output(polledDeviceAuthorizationSchema)
    .mutation(async ({ input, ctx }) => {
      const now = repo.clock();
      const nowIso = new Date(now).toISOString();
      const code = await repo.deviceCodes.byDeviceCodeHash(hashToken(input.deviceCode));
      if (!code || code.status === 'consumed') throw new AppError('INVALID_DEVICE_CODE', undefined, { error: 'invalid_grant' });
      // A code is exchanged only where it was asked for: by the client that started it (ADR 0095).
      if ((code.clientId ?? null) !== (input.oauth?.clientId ?? null))
        throw new AppError('INVALID_DEVICE_CODE', 'The device code was issued to another client.', { error: 'invalid_grant' });
      if (Date.parse(code.expiresAt) <= now) throw new AppError('EXPIRED_TOKEN', undefined, { error: 'expired_token' });

      const tooSoon = code.lastPolledAt !== null && now - Date.parse(code.lastPolledAt) < code.intervalSeconds * 1000;
      if (tooSoon || !(await repo.deviceCodes.recordPoll(code._id, code.lastPolledAt, nowIso))) {
        const slowed = await repo.deviceCodes.slowDown(code._id, slowDownStepSeconds, nowIso);
        const interval = slowed?.intervalSeconds ?? code.intervalSeconds + slowDownStepSeconds;
        throw new AppError('SLOW_DOWN', `Polling too fast: wait ${interval} seconds between polls from now on.`, {
          error: 'slow_down',
          interval,
        });
      }
      if (code.status === 'pending') {
        throw new AppError('AUTHORIZATION_PENDING', undefined, { error: 'authorization_pending', interval: code.intervalSeconds });
      }
      if (code.status === 'denied') throw new AppError('ACCESS_DENIED', undefined, { error: 'access_denied' });

      // Approved: the account must still exist when the session opens.
      if (!code.accountId || !(await repo.accounts.findActive(code.accountId)))
        throw new AppError('ACCESS_DENIED', 'The account that approved this code no longer exists.', { error: 'access_denied' });
      const claimed = await repo.deviceCodes.claimApproved(code._id);
      if (!claimed?.accountId || !claimed.approvedScopes) {
        throw new AppError('INVALID_DEVICE_CODE', undefined, { error: 'invalid_grant' });
      }
      const { oauth } = input;
      const { accountId, approvedScopes: scopes, clientName, ip } = claimed;
      let exchanged: { token: string; refreshToken?: string; sessionId: string; expiresAt: string };
      try {
        if (oauth) {
          const tokens = await openOAuthGrant(repo, { ...oauth, accountId, clientName, scopes, ip });
          exchanged = {
            token: tokens.accessToken,
            refreshToken: tokens.refreshToken,
            sessionId: tokens.sessionId,
            expiresAt: tokens.accessTokenExpiresAt,
          };
        } else {
          const label = clientName ?? 'Command-line sign-in';
          const opened = await openSession(repo, { accountId, kind: 'cli', scopes, ttlMs: input.sessionTtlMs, userAgent: null, ip, label });
          exchanged = { token: opened.token, sessionId: opened.session._id, expiresAt: opened.session.expiresAt };
        }
      } catch (error) {
        // Nothing was handed out: the next poll may exchange the code after all.
        await repo.deviceCodes.unclaim(code._id);
        throw error;
      }
      await repo.deviceCodes.recordSession(code._id, exchanged.sessionId);
      if (!oauth) {
        logger.info(
          { deviceAuthorizationId: code._id, sessionId: exchanged.sessionId, accountId, requestId: ctx.requestId },
          'device code exchanged',
        );
      }
      return { ...exchanged, scopes };
    });
}
