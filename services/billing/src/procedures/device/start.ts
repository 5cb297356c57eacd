import { startDeviceAuthorizationInputSchema, startedDeviceAuthorizationSchema } from '@vrs/contracts';
import { newId, procedure } from '@vrs/kit';
import { DuplicateKeyError } from '@vrs/store';
import type { BillingDeps } from '../../billing-deps';
import { generateToken, hashToken } from '../../identity/tokens';
import { formatUserCode, generateUserCode } from '../../identity/user-codes';

/** Expired records stay this long, so a client polling late still hears expired_token, not an unknown code. */
const keptAfterExpiryMs = 86_400_000;
/** A new user code that clashes with a kept one (1 in 2^34.6 per kept code) is drawn again. */
const attempts = 5;

/**
 * Starts an RFC 8628 device authorization (ADR 0036): a secret device code for the client, a short
 * user code for the person. Both are returned here only; billing keeps their hashes.
 */
export function startDeviceAuthorization({ repo, logger }: BillingDeps) {
  return procedure
    .input(startDeviceAuthorizationInputSchema)
    .output(startedDeviceAuthorizationSchema)
    .mutation(async ({ input, ctx }) => {
      const now = repo.clock();
      const nowIso = new Date(now).toISOString();
      await repo.deviceCodes.purge(nowIso);
      const expiresAtMs = now + input.expiresInSeconds * 1000;
      for (let attempt = 1; ; attempt++) {
        const deviceCode = generateToken('');
        const userCode = generateUserCode();
        const doc = {
          _id: newId('dev'),
          deviceCodeHash: hashToken(deviceCode),
          userCodeHash: hashToken(userCode),
          status: 'pending' as const,
          clientName: input.clientName,
          requestedScopes: [...new Set(input.scopes)],
          approvedScopes: null,
          accountId: null,
          intervalSeconds: input.intervalSeconds,
          lastPolledAt: null,
          createdAt: nowIso,
          expiresAt: new Date(expiresAtMs).toISOString(),
          purgeAt: new Date(expiresAtMs + keptAfterExpiryMs).toISOString(),
          decidedAt: null,
          sessionId: null,
          ip: input.ip,
          clientId: input.clientId,
        };
        try {
          await repo.deviceCodes.insert(doc);
        } catch (error) {
          if (error instanceof DuplicateKeyError && attempt < attempts) continue;
          throw error;
        }
        logger.info(
          { deviceAuthorizationId: doc._id, scopes: doc.requestedScopes, requestId: ctx.requestId },
          'device authorization started',
        );
        return {
          deviceCode,
          userCode: formatUserCode(userCode),
          expiresInSeconds: input.expiresInSeconds,
          intervalSeconds: input.intervalSeconds,
        };
      }
    });
}
