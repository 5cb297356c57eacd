import { lookupUserCodeInputSchema, pendingDeviceAuthorizationSchema } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';
import { pendingDeviceCode } from '../../identity/pending-device-code';
import { formatUserCode } from '../../identity/user-codes';

/** What the approval page shows for a typed user code: the client and the scopes it asks for. */
export function lookupDeviceAuthorization({ repo }: BillingDeps) {
  return procedure
    .input(lookupUserCodeInputSchema)
    .output(pendingDeviceAuthorizationSchema)
    .query(async ({ input }) => {
      const code = await pendingDeviceCode(repo, input.userCode);
      return {
        userCode: formatUserCode(code.userCode),
        clientName: code.clientName,
        scopes: code.requestedScopes,
        expiresAt: code.expiresAt,
      };
    });
}
