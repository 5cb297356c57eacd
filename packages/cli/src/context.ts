import type { Command } from 'commander';
import { createVrsClient, type FetchResult, type VrsClient } from '@vrs/client';
import { readCredential, removeCredential, saveCredential } from './credentials';
import { oauthCredential, refreshTokens } from './device-flow';
import { NotSignedInError } from './exit-codes';
import { Output } from './output';

const defaultApiUrl = 'http://127.0.0.1:8080';

/** What every command gets: where the API is, how to print, and a client with the caller's credential. */
export type CliContext = ReturnType<typeof contextOf>;

/** Renewed this long before the access token's end, so a command never starts with a token about to expire. */
const refreshMarginMs = 60_000;

/** The stored token, renewed first when it is an OAuth access token near its end; an ended grant is forgotten (sign in again). */
async function freshToken(apiUrl: string): Promise<string | undefined> {
  const stored = await readCredential(apiUrl);
  if (stored?.kind !== 'oauth' || !stored.refreshToken || !stored.expiresAt) return stored?.token;
  if (Date.parse(stored.expiresAt) - refreshMarginMs > Date.now()) return stored.token;
  const renewed = await refreshTokens(apiUrl, stored.refreshToken);
  if (!renewed) {
    await removeCredential(apiUrl);
    return undefined;
  }
  await saveCredential(apiUrl, oauthCredential(renewed, renewed.refresh_token ?? stored.refreshToken));
  return renewed.access_token;
}

export function contextOf(command: Command, env: NodeJS.ProcessEnv = process.env) {
  const options = command.optsWithGlobals<{ json?: boolean; apiUrl?: string }>();
  // `--api-url` over `VRS_API_URL` over the local default; kept without a trailing slash so stored credentials match.
  const apiUrl = (options.apiUrl ?? env.VRS_API_URL ?? defaultApiUrl).replace(/\/+$/, '');
  const out = new Output({ json: options.json === true, env });
  const userAgent = { 'user-agent': 'vrs-cli/1.0.0' };
  /** A client signed in with VRS_API_KEY, else the stored credential for apiUrl; throws when there is neither. */
  async function client() {
    // The environment wins over what login stored, so scripts and CI never depend on a home directory.
    const key = env.VRS_API_KEY?.trim();
    const token = key || (await freshToken(apiUrl));
    if (!token) throw new NotSignedInError();
    return createVrsClient({ baseUrl: apiUrl, token, headers: userAgent });
  }
  return {
    out,
    apiUrl,
    client,
    /** One call of that client's `api`: `{data, meta}`, or the ApiError thrown. */
    async call<T>(request: (api: VrsClient['api']) => Promise<FetchResult<T>>) {
      const signedIn = await client();
      return signedIn.send(request(signedIn.api));
    },
    /** A client without credentials (login). */
    anonymousClient: () => createVrsClient({ baseUrl: apiUrl, headers: userAgent }),
  };
}
