import type { BillingRouter } from '@vrs/billing';
import { createServiceClient } from '@vrs/kit';
import { apiClient, type ApiResponse } from '@vrs/testing/api-client';

/** Billing's internal procedures, as the gateway calls them (a new account, a web sign-in, the session list). */
export function billingClient(stackEnv: Record<string, string>) {
  return createServiceClient<BillingRouter>({
    mode: 'http',
    url: stackEnv.BILLING_SERVICE_URL!,
    internalToken: stackEnv.INTERNAL_TOKEN!,
    caller: 'e2e',
    timeoutMs: 30_000,
  });
}

export type BillingClient = ReturnType<typeof billingClient>;

/**
 * A new account signed in on the web: the session cookie and its CSRF token, exactly what the
 * sign-in form hands a browser (the session is opened through billing's internal procedure).
 */
export async function signedInAccount(billing: BillingClient) {
  const { accountId } = await billing.accounts.create.mutate({});
  const session = await billing.sessions.create.mutate({ accountId, kind: 'web', scopes: null, ttlMs: 3_600_000 });
  return { accountId, cookieToken: session.token, cookie: `vrs_session=${session.token}`, csrfToken: session.csrfToken! };
}

export interface DeviceCode {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

export async function requestDeviceCode(gatewayUrl: string, body: Record<string, unknown>): Promise<ApiResponse<DeviceCode>> {
  return apiClient(gatewayUrl)('POST', '/v1/auth/device/code', { json: body });
}

export function pollToken(gatewayUrl: string, deviceCode: string) {
  return apiClient(gatewayUrl)('POST', '/v1/auth/device/token', {
    json: { device_code: deviceCode, grant_type: 'urn:ietf:params:oauth:grant-type:device_code' },
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What an RFC 8628 client does: polls every `interval` seconds, slows down when told, and stops at
 * the token or any other refusal. Returns the token response and every status code it saw.
 */
export async function pollUntilDecided(
  gatewayUrl: string,
  code: DeviceCode,
  options: { deadlineMs?: number } = {},
): Promise<{ token?: any; refused?: ApiResponse; seen: string[] }> {
  let interval = code.interval;
  const seen: string[] = [];
  const deadline = Date.now() + (options.deadlineMs ?? code.expires_in * 1000);
  while (Date.now() < deadline) {
    await sleep(interval * 1000);
    const response = await pollToken(gatewayUrl, code.device_code);
    if (response.status === 200) return { token: response.body, seen };
    const error = response.body.error;
    seen.push(error.code);
    if (error.code === 'SLOW_DOWN') interval = error.details.interval;
    else if (error.code !== 'AUTHORIZATION_PENDING') return { refused: response, seen };
  }
  throw new Error(`no decision before the deadline; polls answered ${seen.join(', ')}`);
}
