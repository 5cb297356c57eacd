import { router } from '@vrs/kit';
import type { BillingDeps } from './billing-deps';
import { createAccount } from './procedures/accounts/create';
import { deleteAccount } from './procedures/accounts/delete';
import { ensureDemoAccount } from './procedures/accounts/ensure-demo';
import { getAccount } from './procedures/accounts/get';
import { updateAccount } from './procedures/accounts/update';
import { requestPasswordReset } from './procedures/identity/request-password-reset';
import { resetPassword } from './procedures/identity/reset-password';
import { signIn } from './procedures/identity/sign-in';
import { signUp } from './procedures/identity/sign-up';
import { verifyEmail } from './procedures/identity/verify-email';
import { createApiKey } from './procedures/api-keys/create';
import { listApiKeys } from './procedures/api-keys/list';
import { revokeApiKey } from './procedures/api-keys/revoke';
import { touchApiKeys } from './procedures/api-keys/touch';
import { verifyApiKey } from './procedures/api-keys/verify';
import { closeManyCredits } from './procedures/credits/close-many';
import { refundCredits } from './procedures/credits/refund';
import { reserveCredits } from './procedures/credits/reserve';
import { reserveManyCredits } from './procedures/credits/reserve-many';
import { settleCredits } from './procedures/credits/settle';
import { checkHealth } from './procedures/health/check';
import { listLedgerEntries } from './procedures/ledger/list';
import { listPlans } from './procedures/plans/list';
import { getBillingStatus } from './procedures/status/get';
import { setPlan } from './procedures/subscriptions/set-plan';
import { createSession } from './procedures/sessions/create';
import { listSessions } from './procedures/sessions/list';
import { revokeAllSessions } from './procedures/sessions/revoke-all';
import { revokeSession } from './procedures/sessions/revoke';
import { rotateSession } from './procedures/sessions/rotate';
import { verifySession } from './procedures/sessions/verify';
import { approveDeviceAuthorization } from './procedures/device/approve';
import { denyDeviceAuthorization } from './procedures/device/deny';
import { lookupDeviceAuthorization } from './procedures/device/lookup';
import { pollDeviceAuthorization } from './procedures/device/poll';
import { startDeviceAuthorization } from './procedures/device/start';
import { exchangeAuthorizationCode } from './procedures/oauth/exchange-code';
import { getOAuthClient } from './procedures/oauth/get-client';
import { issueAuthorizationCode } from './procedures/oauth/issue-code';
import { refreshOAuthGrant } from './procedures/oauth/refresh';
import { registerOAuthClient } from './procedures/oauth/register-client';
import { revokeOAuthToken } from './procedures/oauth/revoke';

/** The billing service's internal procedures; the gateway (and any service) calls them. */
export function billingRouter(deps: BillingDeps) {
  return router({
    accounts: router({
      create: createAccount(deps),
      ensureDemo: ensureDemoAccount(deps),
      get: getAccount(deps),
      update: updateAccount(deps),
      delete: deleteAccount(deps),
    }),
    identity: router({
      signUp: signUp(deps),
      signIn: signIn(deps),
      verifyEmail: verifyEmail(deps),
      requestPasswordReset: requestPasswordReset(deps),
      resetPassword: resetPassword(deps),
    }),
    apiKeys: router({
      create: createApiKey(deps),
      verify: verifyApiKey(deps),
      revoke: revokeApiKey(deps),
      list: listApiKeys(deps),
      touch: touchApiKeys(deps),
    }),
    sessions: router({
      create: createSession(deps),
      verify: verifySession(deps),
      rotate: rotateSession(deps),
      list: listSessions(deps),
      revoke: revokeSession(deps),
      revokeAll: revokeAllSessions(deps),
    }),
    device: router({
      start: startDeviceAuthorization(deps),
      poll: pollDeviceAuthorization(deps),
      lookup: lookupDeviceAuthorization(deps),
      approve: approveDeviceAuthorization(deps),
      deny: denyDeviceAuthorization(deps),
    }),
    oauth: router({
      registerClient: registerOAuthClient(deps),
      getClient: getOAuthClient(deps),
      issueCode: issueAuthorizationCode(deps),
      exchangeCode: exchangeAuthorizationCode(deps),
      refresh: refreshOAuthGrant(deps),
      revoke: revokeOAuthToken(deps),
    }),
    credits: router({
      reserve: reserveCredits(deps),
      settle: settleCredits(deps),
      refund: refundCredits(deps),
      reserveMany: reserveManyCredits(deps),
      closeMany: closeManyCredits(deps),
    }),
    status: router({ get: getBillingStatus(deps) }),
    plans: router({ list: listPlans(deps) }),
    subscriptions: router({ setPlan: setPlan(deps) }),
    ledger: router({ list: listLedgerEntries(deps) }),
    health: checkHealth(deps),
  });
}

export type BillingRouter = ReturnType<typeof billingRouter>;
