import type { Command } from 'commander';
import { createVrsClient, type VrsClient } from '@vrs/client';
import { readCredential } from './credentials';
import { NotSignedInError } from './exit-codes';
import { Output } from './output';

export const defaultApiUrl = 'http://127.0.0.1:8080';

/** What every command gets: where the API is, how to print, and a client with the caller's credential. */
export interface CliContext {
  out: Output;
  apiUrl: string;
  /** A client signed in with VRS_API_KEY, else the stored credential for apiUrl; throws when there is neither. */
  client(): Promise<VrsClient>;
  /** A client without credentials (login). */
  anonymousClient(): VrsClient;
}

/** `--api-url` over `VRS_API_URL` over the local default; kept without a trailing slash so stored credentials match. */
export function apiUrlOf(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  return (flag ?? env.VRS_API_URL ?? defaultApiUrl).replace(/\/+$/, '');
}

export function contextOf(command: Command, env: NodeJS.ProcessEnv = process.env): CliContext {
  const options = command.optsWithGlobals<{ json?: boolean; apiUrl?: string }>();
  const apiUrl = apiUrlOf(options.apiUrl, env);
  const out = new Output({ json: options.json === true, env });
  const userAgent = { 'user-agent': 'vrs-cli/1.0.0' };
  return {
    out,
    apiUrl,
    async client() {
      // The environment wins over what login stored, so scripts and CI never depend on a home directory.
      const token = env.VRS_API_KEY?.trim() || (await readCredential(apiUrl))?.token;
      if (!token) throw new NotSignedInError();
      return createVrsClient({ baseUrl: apiUrl, token, headers: userAgent });
    },
    anonymousClient: () => createVrsClient({ baseUrl: apiUrl, headers: userAgent }),
  };
}
