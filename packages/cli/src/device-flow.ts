import { ApiError, type components, type VrsClient } from '@vrs/client';

/** RFC 8628 §3.2: what `POST /v1/auth/device/code` answers. */
export type DeviceCode = components['schemas']['DeviceAuthorization'];

/** RFC 8628 §3.5 / RFC 6749 §5.1: the token answer, a CLI session token (`atc_…`). */
export type DeviceToken = components['schemas']['DeviceAccessToken'];

export type Scope = components['schemas']['ApiKey']['scopes'][number];

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
  /** What to ask for; the server's default (data:read) when left out. The person may approve less. */
  scopes?: Scope[];
  /** Shown on the approval page and as the CLI session's label. */
  clientName?: string;
  /** Shows the user code and where to enter it. */
  onCode(code: DeviceCode): void;
  /** Called before each poll, with the interval in force (tests record it). */
  sleep?(ms: number): Promise<void>;
  now?(): number;
}

/** The OAuth error (RFC 8628 §3.5) and, on slow_down, the new interval an envelope carries in `details`. */
function oauthErrorOf(error: unknown): { error?: string; interval?: number } {
  if (!(error instanceof ApiError)) return {};
  const details = error.details as { error?: unknown; interval?: unknown } | undefined;
  return {
    ...(typeof details?.error === 'string' ? { error: details.error } : {}),
    ...(typeof details?.interval === 'number' ? { interval: details.interval } : {}),
  };
}

const expired = () => new DeviceFlowError('expired_token', 'The code expired before it was approved; run `vrs login` again.');

/**
 * RFC 8628 device authorization: ask for a code, show it, then poll the token endpoint every
 * `interval` seconds until the user approves (a token), refuses (`access_denied`) or the code
 * expires (`expired_token`, or our own clock passing `expires_in`). On `slow_down` the interval
 * becomes the one the server names in details.interval (5 s more, RFC 8628 §3.5, when it names none).
 */
export async function runDeviceFlow(options: DeviceFlowOptions): Promise<DeviceToken> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;
  const { client } = options;
  const { data: code } = await client.send(
    client.api.POST('/auth/device/code', {
      body: {
        ...(options.scopes?.length ? { scopes: options.scopes } : {}),
        ...(options.clientName ? { clientName: options.clientName } : {}),
      },
    }),
  );
  options.onCode(code);
  let intervalMs = Math.max(1, code.interval) * 1000;
  const deadline = now() + code.expires_in * 1000;
  while (now() < deadline) {
    await sleep(intervalMs);
    try {
      const { data } = await client.send(
        client.api.POST('/auth/device/token', { body: { device_code: code.device_code, grant_type: deviceGrantType } }),
      );
      return data;
    } catch (error) {
      const refusal = oauthErrorOf(error);
      if (refusal.error === 'authorization_pending') continue;
      if (refusal.error === 'slow_down') {
        intervalMs = refusal.interval !== undefined ? Math.max(intervalMs, refusal.interval * 1000) : intervalMs + 5000;
        continue;
      }
      if (refusal.error === 'access_denied') throw new DeviceFlowError('access_denied', 'The sign-in was refused in the browser.');
      if (refusal.error === 'expired_token') throw expired();
      throw error;
    }
  }
  throw expired();
}
