import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { repoRoot } from '@vrs/kit';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A REST consumer's view of the API: real HTTP, JSON in and out, nothing of ours in between. */
export function apiClient(baseUrl: string, defaultHeaders: Record<string, string> = {}) {
  return async function call<T = any>(
    method: string,
    path: string,
    options: { headers?: Record<string, string>; json?: unknown; rawBody?: string } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...defaultHeaders, ...options.headers };
    let body: string | undefined = options.rawBody;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  };
}
export type ApiCall = ReturnType<typeof apiClient>;

const run = promisify(execFile);

/** Creates an account and key with the documented script, exactly as a newcomer would. */
export async function createApiKey(
  stackEnv: Record<string, string>,
  options: { scopes?: string[]; credits?: number; account?: string } = {},
) {
  const args = ['--import', 'tsx', join(repoRoot, 'scripts/create-api-key.ts'), '--name', 'e2e'];
  if (options.scopes) args.push('--scopes', options.scopes.join(','));
  if (options.credits !== undefined) args.push('--credits', String(options.credits));
  if (options.account) args.push('--account', options.account);
  const { stdout } = await run(process.execPath, args, { cwd: repoRoot, env: { ...process.env, ...stackEnv } });
  const key = /api key: (\S+)/.exec(stdout)?.[1];
  const accountId = /account: (\S+)/.exec(stdout)?.[1];
  if (!key || !accountId) throw new Error(`create-api-key printed no key:\n${stdout}`);
  return { key, accountId };
}

/** Polls until `check` returns a value (not undefined) or the deadline passes; never sleeps blindly. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  options: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
  throw new Error(`timed out waiting for ${options.what ?? 'condition'}${last ? `: ${(last as Error).message}` : ''}`);
}
