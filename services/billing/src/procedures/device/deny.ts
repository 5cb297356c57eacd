import { decidedDeviceAuthorizationSchema, denyDeviceAuthorizationInputSchema } from '@vrs/contracts';
import { AppError, procedure, requestLogFields } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';
import { pendingDeviceCode } from '../../identity/pending-device-code';

/** A signed-in account refuses a pending code; the client's next poll hears access_denied. */
export function denyDeviceAuthorization({ repo, logger }: BillingDeps) {
  return procedure
    .input(denyDeviceAuthorizationInputSchema)
    .output(decidedDeviceAuthorizationSchema)
    .mutation(async ({ input, ctx }) => {
      if (!(await repo.accounts.findActive(input.accountId))) throw new AppError('ACCOUNT_NOT_FOUND');
      const code = await pendingDeviceCode(repo, input.userCode);
      const decided = await repo.deviceCodes.decide(code._id, new Date(repo.clock()).toISOString(), {
        status: 'denied',
        accountId: input.accountId,
        approvedScopes: null,
      });
      if (!decided) throw new AppError('USER_CODE_USED');
      logger.info({ deviceAuthorizationId: code._id, accountId: input.accountId, ...requestLogFields(ctx) }, 'device authorization denied');
      return { status: 'denied' as const, scopes: [], clientName: code.clientName };
    });
}
