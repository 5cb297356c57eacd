import { ApiError, type VrsClient } from '@vrs/client';

/** RFC 8628 §3.2: what `POST /v1/auth/device/code` answers. */
export interface DeviceCode {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete?: string;
  expires_in: number;
  interval?: number;
}

/** RFC 8628 §3.5 / RFC 6749 §5.1: the token answer, a CLI session token. */
export interface DeviceToken {
  access_token: string;
  token_type: string;
  expires_in?: number;
  scope?: string;
}

export const deviceGrantType = 'urn:ietf:params:oauth:grant-type:device_code';

/** The flow ended without a token: the user said no, or the code expired before they approved. */
export class DeviceFlowError extends Error {
  override name = 'DeviceFlowError';
  constructor(
    readonly reason: 'access_denied' | 'expired_token',
    message: string,
  ) {
    super(message);
  }
}

export interface DeviceFlowOptions {
  client: VrsClient;
  clientId: string;
  scope?: string;
  /** Shows the user code and where to enter it. */
  onCode(code: DeviceCode): void;
  /** Called before each poll, with the interval in force (tests record it). */
  sleep?(ms: number): Promise<void>;
  now?(): number;
}

async function postJson<T>(client: VrsClient, path: string, body: unknown): Promise<T> {
  const response = await client.raw(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await response.json()) as T;
}

/** The OAuth error (RFC 8628 §3.5) an envelope carries in `details.error`. */
function oauthErrorOf(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const value = (error.details as { error?: unknown } | undefined)?.error;
  return typeof value === 'string' ? value : undefined;
}

/**
 * RFC 8628 device authorization: ask for a code, show it, then poll the token endpoint every
 * `interval` seconds (5 when the server names none), 5 s slower after each `slow_down`, until the
 * user approves (a token), refuses (`access_denied`) or the code expires (`expired_token`, or our
 * own clock passing `expires_in`).
 */
export async function runDeviceFlow(options: DeviceFlowOptions): Promise<DeviceToken> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;
  const code = await postJson<DeviceCode>(options.client, '/auth/device/code', {
    client_id: options.clientId,
    ...(options.scope ? { scope: options.scope } : {}),
  });
  options.onCode(code);
  let intervalMs = Math.max(1, code.interval ?? 5) * 1000;
  const deadline = now() + code.expires_in * 1000;
  while (now() < deadline) {
    await sleep(intervalMs);
    try {
      return await postJson<DeviceToken>(options.client, '/auth/device/token', {
        grant_type: deviceGrantType,
        device_code: code.device_code,
        client_id: options.clientId,
      });
    } catch (error) {
      const oauthError = oauthErrorOf(error);
      if (oauthError === 'authorization_pending') continue;
      if (oauthError === 'slow_down') {
        intervalMs += 5000;
        continue;
      }
      if (oauthError === 'access_denied') throw new DeviceFlowError('access_denied', 'The sign-in was refused in the browser.');
      if (oauthError === 'expired_token')
        throw new DeviceFlowError('expired_token', 'The code expired before it was approved; run `vrs login` again.');
      throw error;
    }
  }
  throw new DeviceFlowError('expired_token', 'The code expired before it was approved; run `vrs login` again.');
}
