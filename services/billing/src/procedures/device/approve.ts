import { approveDeviceAuthorizationInputSchema, decidedDeviceAuthorizationSchema } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';
import { pendingDeviceCode } from '../../identity/pending-device-code';

/**
 * A signed-in account approves a pending code with some or all of the scopes it asked for; the
 * client's next poll exchanges it for a CLI session holding exactly those.
 */
export function approveDeviceAuthorization({ repo, logger }: BillingDeps) {
  return procedure
    .input(approveDeviceAuthorizationInputSchema)
    .output(decidedDeviceAuthorizationSchema)
    .mutation(async ({ input, ctx }) => {
      if (!(await repo.accounts.findActive(input.accountId))) throw new AppError('ACCOUNT_NOT_FOUND');
      const code = await pendingDeviceCode(repo, input.userCode);
      if (input.scopes.length === 0) throw new AppError('SCOPES_NOT_CHOSEN');
      const notRequested = input.scopes.filter((scope) => !code.requestedScopes.includes(scope));
      if (notRequested.length > 0) throw new AppError('SCOPE_NOT_REQUESTED', undefined, { notRequested });
      const approvedScopes = code.requestedScopes.filter((scope) => input.scopes.includes(scope));
      const decided = await repo.deviceCodes.decide(code._id, new Date(repo.clock()).toISOString(), {
        status: 'approved',
        accountId: input.accountId,
        approvedScopes,
      });
      // Decided by someone else, or expired, since it was read.
      if (!decided) throw new AppError('USER_CODE_USED');
      logger.info(
        { deviceAuthorizationId: code._id, accountId: input.accountId, scopes: approvedScopes, requestId: ctx.requestId },
        'device authorization approved',
      );
      return { status: 'approved' as const, scopes: approvedScopes, clientName: code.clientName };
    });
}
