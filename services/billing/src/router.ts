import { router } from '@vrs/kit';
import type { BillingDeps } from './billing-deps';
import { createAccount } from './procedures/accounts/create';
import { ensureDemoAccount } from './procedures/accounts/ensure-demo';
import { createApiKey } from './procedures/api-keys/create';
import { listApiKeys } from './procedures/api-keys/list';
import { revokeApiKey } from './procedures/api-keys/revoke';
import { verifyApiKey } from './procedures/api-keys/verify';
import { refundCredits } from './procedures/credits/refund';
import { reserveCredits } from './procedures/credits/reserve';
import { settleCredits } from './procedures/credits/settle';
import { checkHealth } from './procedures/health/check';
import { listLedgerEntries } from './procedures/ledger/list';
import { getBillingStatus } from './procedures/status/get';
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

/** The billing service's internal procedures; the gateway (and any service) calls them. */
export function billingRouter(deps: BillingDeps) {
  return router({
    accounts: router({ create: createAccount(deps), ensureDemo: ensureDemoAccount(deps) }),
    apiKeys: router({
      create: createApiKey(deps),
      verify: verifyApiKey(deps),
      revoke: revokeApiKey(deps),
      list: listApiKeys(deps),
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
    credits: router({ reserve: reserveCredits(deps), settle: settleCredits(deps), refund: refundCredits(deps) }),
    status: router({ get: getBillingStatus(deps) }),
    ledger: router({ list: listLedgerEntries(deps) }),
    health: checkHealth(deps),
  });
}

export type BillingRouter = ReturnType<typeof billingRouter>;
