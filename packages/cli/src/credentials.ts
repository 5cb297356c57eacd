import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** What `vrs login` stores for one API origin. */
export interface StoredCredential {
  /**
   * An OAuth access token (`ato_…`) from the device flow, an API key (`aty_…`) given to
   * `login --with-api-key`, or a CLI session token (`atc_…`) stored by an older `vrs login`.
   */
  token: string;
  kind: 'oauth' | 'cli_session' | 'api_key';
  /** ISO time the token stops working, when the server said (`expires_in`). */
  expiresAt?: string;
  /** OAuth only: what renews the access token when it expires (each is used once, ADR 0095). */
  refreshToken?: string;
  scope?: string;
  savedAt: string;
}

interface CredentialsFile {
  version: 1;
  /** By API origin, so one machine can be signed in to several deployments. */
  credentials: Record<string, StoredCredential>;
}

/** `$XDG_CONFIG_HOME/vrs/credentials.json`, else `%APPDATA%\vrs` on Windows, else `~/.config/vrs`. */
export function credentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || (process.platform === 'win32' && env.APPDATA ? env.APPDATA : join(env.HOME || homedir(), '.config'));
  return join(base, 'vrs', 'credentials.json');
}

async function readAll(path: string): Promise<CredentialsFile> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as CredentialsFile;
    return parsed?.version === 1 && typeof parsed.credentials === 'object' ? parsed : { version: 1, credentials: {} };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, credentials: {} };
    throw error;
  }
}

async function writeAll(path: string, file: CredentialsFile): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFile(path, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  // writeFile's mode applies only when it creates the file; a file that existed keeps its own.
  await chmod(path, 0o600);
}

export async function readCredential(apiUrl: string, path = credentialsPath()): Promise<StoredCredential | undefined> {
  return (await readAll(path)).credentials[apiUrl];
}

export async function saveCredential(apiUrl: string, credential: StoredCredential, path = credentialsPath()): Promise<void> {
  const file = await readAll(path);
  file.credentials[apiUrl] = credential;
  await writeAll(path, file);
}

/** Forgets the origin's credential; the file goes when it holds none. */
export async function removeCredential(apiUrl: string, path = credentialsPath()): Promise<boolean> {
  const file = await readAll(path);
  if (!file.credentials[apiUrl]) return false;
  delete file.credentials[apiUrl];
  if (Object.keys(file.credentials).length === 0) await rm(path, { force: true });
  else await writeAll(path, file);
  return true;
}
