import { ApiError, type components } from '@vrs/client';
import type { StoredCredential } from './credentials';

export type Scope = components['schemas']['ApiKey']['scopes'][number];

export const deviceGrantType = 'urn:ietf:params:oauth:grant-type:device_code';
/** The CLI's public client id, known to the server without registration (ADR 0095). */
export const cliClientId = 'vrs-cli';

/** RFC 8628 §3.2: the device authorization response. */
export interface DeviceCode {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete?: string;
  expires_in: number;
  interval?: number;
}

/** RFC 6749 §5.1: the token response (an OAuth access token `ato_…` and its refresh token). */
export interface TokenResponse {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token?: string;
  scope: string;
}

/** What `vrs login` stores for a token response; a refresh that sends no new refresh token keeps `refreshToken`. */
export function oauthCredential(token: TokenResponse, refreshToken = token.refresh_token): StoredCredential {
  return {
    token: token.access_token,
    kind: 'oauth',
    expiresAt: new Date(Date.now() + token.expires_in * 1000).toISOString(),
    ...(refreshToken ? { refreshToken } : {}),
    scope: token.scope,
    savedAt: new Date().toISOString(),
  };
}

/** The endpoints the CLI uses, from RFC 8414 metadata. */
export interface ServerEndpoints {
  device_authorization_endpoint: string;
  token_endpoint: string;
  revocation_endpoint?: string;
}

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

/** A JSON answer: a token, a device code, metadata, or an RFC 6749 §5.2 refusal. */
type Answer = Record<string, unknown>;

async function request(url: string, init?: RequestInit): Promise<{ status: number; body: Answer }> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    throw new ApiError({ status: 0, code: 'NETWORK_ERROR', message: `Could not reach ${url}.`, cause: error });
  }
  const text = await response.text();
  try {
    return { status: response.status, body: text ? (JSON.parse(text) as Answer) : {} };
  } catch {
    throw new ApiError({
      status: response.status,
      code: 'UNEXPECTED_RESPONSE',
      message: `${url} answered ${response.status} without JSON.`,
    });
  }
}

/** An RFC 6749 §5.2 refusal as an ApiError: the status classifies it (exit codes), `details.error` names it. */
function oauthRefusal(status: number, body: Answer): ApiError {
  const error = typeof body.error === 'string' ? body.error : 'unexpected_response';
  const description = typeof body.error_description === 'string' ? body.error_description : '';
  return new ApiError({ status, code: 'UNEXPECTED_RESPONSE', message: `${error}${description ? `: ${description}` : ''}`, details: body });
}

/** RFC 8414 discovery: the API origin's authorization-server metadata. */
export async function discoverEndpoints(apiUrl: string): Promise<ServerEndpoints> {
  const url = `${apiUrl}/.well-known/oauth-authorization-server`;
  const { status, body } = await request(url);
  if (status !== 200 || typeof body.token_endpoint !== 'string' || typeof body.device_authorization_endpoint !== 'string')
    throw new ApiError({ status, code: 'UNEXPECTED_RESPONSE', message: `${url} is not authorization-server metadata (HTTP ${status}).` });
  return body as unknown as ServerEndpoints;
}

/** A form-encoded POST (RFC 6749 §3.2, RFC 8628 §3.1). */
function postForm(url: string, fields: Record<string, string>) {
  return request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(fields),
  });
}

export interface DeviceFlowOptions {
  apiUrl: string;
  /** What to ask for; the server's default (data:read) when left out. The person may approve less. */
  scopes?: Scope[];
  /** Shows the user code and where to enter it. */
  onCode(code: DeviceCode): void;
  /** Called before each poll, with the interval in force (tests record it). */
  sleep?(ms: number): Promise<void>;
  now?(): number;
}

const expired = () => new DeviceFlowError('expired_token', 'The code expired before it was approved; run `vrs login` again.');

/**
 * RFC 8628 against the endpoints the server's metadata names, as any OAuth library does it (ADR 0097):
 * ask for a code, show it, then poll until the user approves or refuses or the code expires (the server
 * says so, or our own clock passes `expires_in`); `slow_down` adds 5 s (RFC 8628 §3.5).
 */
export async function runDeviceFlow(options: DeviceFlowOptions): Promise<TokenResponse> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;
  const endpoints = await discoverEndpoints(options.apiUrl);
  const started = await postForm(endpoints.device_authorization_endpoint, {
    client_id: cliClientId,
    ...(options.scopes?.length ? { scope: options.scopes.join(' ') } : {}),
  });
  if (started.status !== 200) throw oauthRefusal(started.status, started.body);
  const code = started.body as unknown as DeviceCode;
  options.onCode(code);
  let intervalMs = Math.max(1, code.interval ?? 5) * 1000;
  const deadline = now() + code.expires_in * 1000;
  while (now() < deadline) {
    await sleep(intervalMs);
    const { status, body } = await postForm(endpoints.token_endpoint, {
      grant_type: deviceGrantType,
      device_code: code.device_code,
      client_id: cliClientId,
    });
    if (status === 200) return body as unknown as TokenResponse;
    if (body.error === 'authorization_pending') continue;
    if (body.error === 'slow_down') {
      intervalMs = typeof body.interval === 'number' ? Math.max(intervalMs, body.interval * 1000) : intervalMs + 5000;
      continue;
    }
    if (body.error === 'access_denied') throw new DeviceFlowError('access_denied', 'The sign-in was refused in the browser.');
    if (body.error === 'expired_token') throw expired();
    throw oauthRefusal(status, body);
  }
  throw expired();
}

/**
 * The refresh grant: a new access token and a new refresh token (the old one is used up, ADR 0095).
 * Null when the grant has ended (`invalid_grant`: revoked, expired, or the refresh token reused).
 */
export async function refreshTokens(apiUrl: string, refreshToken: string): Promise<TokenResponse | null> {
  const endpoints = await discoverEndpoints(apiUrl);
  const { status, body } = await postForm(endpoints.token_endpoint, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: cliClientId,
  });
  if (status === 200) return body as unknown as TokenResponse;
  if (body.error === 'invalid_grant') return null;
  throw oauthRefusal(status, body);
}

/** RFC 7009: ends the grant the token belongs to. The server answers 200 whether or not it knew the token. */
export async function revokeToken(apiUrl: string, token: string): Promise<void> {
  const endpoints = await discoverEndpoints(apiUrl);
  if (!endpoints.revocation_endpoint) return;
  const { status, body } = await postForm(endpoints.revocation_endpoint, { token, client_id: cliClientId });
  if (status !== 200) throw oauthRefusal(status, body);
}
