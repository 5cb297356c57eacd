import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '@vrs/kit';
import { apiClient } from '@vrs/testing/api-client';
import { launchBrowser, type BrowserHandle } from '@vrs/testing/browser';
import { makeTempDir } from '@vrs/testing/temp-dir';
import { signUpVerified, type WebSession } from '@vrs/testing/web-session';

const gatewayUrl = inject('gatewayUrl');
const vrsBin = join(repoRoot, 'packages/cli/bin/vrs.mjs');

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `vrs` in its own process with its own config dir: real HTTP, no colours, no VRS_API_KEY unless given. */
function vrs(args: string[], env: Record<string, string | undefined>): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [vrsBin, ...args],
      {
        cwd: repoRoot,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', VRS_API_URL: gatewayUrl, ...env },
        timeout: 60_000,
      },
      (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const json = (run: CliRun) => {
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
};

/**
 * `vrs login` left running as a person would: what it printed so far, a promise of the first stderr
 * text matching `pattern`, and one of its exit.
 */
function startLogin(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [vrsBin, 'login', ...args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', VRS_API_URL: gatewayUrl, ...env },
  });
  const run: CliRun = { code: -1, stdout: '', stderr: '' };
  const waiters: (() => void)[] = [];
  child.stdout.on('data', (chunk) => {
    run.stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    run.stderr += chunk;
    for (const wake of waiters.splice(0)) wake();
  });
  const exited = new Promise<CliRun>((resolve) => child.on('close', (code) => resolve({ ...run, code: code ?? 1 })));
  const printed = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(run.stderr);
        if (match) resolve(match);
        else if (child.exitCode !== null) reject(new Error(`vrs login exited ${child.exitCode}: ${run.stderr}`));
        else waiters.push(check);
      };
      check();
    });
  return { child, run, exited, printed };
}

/** The signed-in web user opens the link in chromium, checks the code and the client, and approves. */
async function approveInBrowser(link: string, userCode: string, options: { uncheck?: RegExp } = {}) {
  const context = await browser.newContext();
  try {
    const [name, value] = user.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: gatewayUrl }]);
    const page = await context.newPage();
    await page.goto(link);
    await expect.poll(() => page.getByTestId('user-code').textContent()).toBe(userCode);
    expect(await page.getByText('vrs CLI').count()).toBeGreaterThan(0);
    if (options.uncheck) await page.getByLabel(options.uncheck).uncheck();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForSelector('[data-outcome="approved"]');
  } finally {
    await context.close();
  }
}

let browser: BrowserHandle;
let user: WebSession & { email: string };
let config: string;
let env: Record<string, string>;
let token: string;

beforeAll(async () => {
  [browser, user] = await Promise.all([launchBrowser(), signUpVerified(gatewayUrl, inject('mailInboxUrl'))]);
  config = await mkdtemp(join(tmpdir(), 'vrs-cli-device-'));
  env = { XDG_CONFIG_HOME: config };
}, 300_000);
afterAll(async () => {
  await browser?.close();
  if (config) await rm(config, { recursive: true, force: true });
});

// Each step starts a process (tsx compiles on start); the login waits for polls 5 s apart.
describe('vrs login through the device flow, approved in a browser', { timeout: 300_000 }, () => {
  it('prints the code and the link, polls until the web user approves, and stores the CLI session with mode 0600', async () => {
    const login = startLogin(['--scopes', 'data:read,data:write,account:manage'], env);
    const [, userCode] = await login.printed(/enter the code ([A-Z0-9]{4}-[A-Z0-9]{4})/);
    const [, link] = await login.printed(/\(or open (\S+)\)\./);
    expect(link).toBe(`${gatewayUrl}/device?user_code=${userCode}`);
    expect(login.run.stderr).toContain(`open ${gatewayUrl}/device and enter the code`);

    // The person gives less than was asked: no writing.
    await approveInBrowser(link!, userCode!, { uncheck: /data:write/ });

    const done = await login.exited;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(new RegExp(`^Signed in to ${gatewayUrl} with data:read, account:manage\\.`));
    const file = join(config, 'vrs', 'credentials.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(await readFile(file, 'utf8')).credentials[gatewayUrl];
    expect(stored).toMatchObject({
      kind: 'oauth',
      token: expect.stringMatching(/^ato_/),
      refreshToken: expect.stringMatching(/^atr_/),
      scope: 'data:read account:manage',
    });
    expect(Date.parse(stored.expiresAt)).toBeGreaterThan(Date.now());
    token = stored.token;
  });

  it('whoami names the account, the CLI session and the approved scopes', async () => {
    const who = json(await vrs(['whoami', '--json'], env));
    expect(who).toMatchObject({ apiUrl: gatewayUrl, accountId: user.accountId, account: { id: user.accountId, email: user.email } });
    expect(who.credential).toMatchObject({ kind: 'oauth', id: expect.any(String) });
    expect(who.credential.id).not.toBe(user.sessionId);
    expect([...who.scopes].sort()).toEqual(['account:manage', 'data:read']);
    expect(json(await vrs(['projects', 'list', '--json'], env))).toMatchObject({ data: [] });
  });

  it('renews an expired access token with the refresh token, once, and keeps working', async () => {
    const file = join(config, 'vrs', 'credentials.json');
    const before = JSON.parse(await readFile(file, 'utf8'));
    const stored = before.credentials[gatewayUrl];
    before.credentials[gatewayUrl] = { ...stored, expiresAt: new Date(Date.now() - 1000).toISOString() };
    await writeFile(file, JSON.stringify(before));
    expect(json(await vrs(['whoami', '--json'], env)).credential.kind).toBe('oauth');
    const renewed = JSON.parse(await readFile(file, 'utf8')).credentials[gatewayUrl];
    expect(renewed.token).not.toBe(stored.token);
    expect(renewed.refreshToken).not.toBe(stored.refreshToken);
    expect(Date.parse(renewed.expiresAt)).toBeGreaterThan(Date.now());
    // The replaced access token stopped at once.
    expect((await apiClient(gatewayUrl, { authorization: `Bearer ${stored.token}` })('GET', '/v1/auth/session')).status).toBe(401);
    token = renewed.token;
  });

  it('a command needing a scope that was not approved exits 3 with the message and requestId', async () => {
    const refused = await vrs(['projects', 'create', 'not allowed'], env);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/data:write/);
    expect(refused.stderr).toMatch(/code: INSUFFICIENT_SCOPE \(HTTP 403\)/);
    expect(refused.stderr).toMatch(/requestId: \S+/);
  });

  it('keys: creates a key shown once, lists it, the key works, revoking it stops it', async () => {
    const created = json(await vrs(['keys', 'create', 'ci key', '--scopes', 'data:read', '--json'], env));
    expect(created).toMatchObject({
      id: expect.any(String),
      name: 'ci key',
      scopes: ['data:read'],
      expiresAt: null,
      key: expect.stringMatching(/^aty_/),
    });
    const listed = json(await vrs(['keys', 'list', '--json'], env));
    const row = listed.data.find((key: { id: string }) => key.id === created.id);
    expect(row).toMatchObject({ name: 'ci key', scopes: ['data:read'] });
    expect(row).not.toHaveProperty('key');
    const human = await vrs(['keys', 'list'], env);
    expect(human.stdout).toContain(created.prefix);

    // The new key acts for the same account, as an API key.
    const asKey = json(await vrs(['whoami', '--json'], { ...env, VRS_API_KEY: created.key }));
    expect(asKey).toMatchObject({ accountId: user.accountId, credential: { kind: 'api_key', id: created.id }, scopes: ['data:read'] });

    // A key may not hold more than the CLI session that creates it.
    const wider = await vrs(['keys', 'create', 'too wide', '--scopes', 'data:read,billing:read'], env);
    expect(wider.code).toBe(3);
    expect(wider.stderr).toMatch(/billing:read/);

    expect(json(await vrs(['keys', 'revoke', created.id, '--json'], env))).toEqual({ id: created.id, deleted: true });
    const revoked = await vrs(['whoami'], { ...env, VRS_API_KEY: created.key });
    expect(revoked.code).toBe(3);
    expect((await vrs(['keys', 'revoke', created.id], env)).code).toBe(5);

    const expiring = json(
      await vrs(
        ['keys', 'create', 'short', '--scopes', 'data:read', '--expires-at', new Date(Date.now() + 86_400_000).toISOString(), '--json'],
        env,
      ),
    );
    expect(Date.parse(expiring.expiresAt)).toBeGreaterThan(Date.now());
    expect((await vrs(['keys', 'create', 'past', '--scopes', 'data:read', '--expires-at', '2020-01-01T00:00:00Z'], env)).code).toBe(2);
    expect((await vrs(['keys', 'create', 'unscoped'], env)).code).toBe(2);
  });

  it('logout revokes the CLI session on the server and forgets it', async () => {
    const out = json(await vrs(['logout', '--json'], env));
    expect(out).toEqual({ apiUrl: gatewayUrl, removed: true, revoked: true });
    await expect(stat(join(config, 'vrs', 'credentials.json'))).rejects.toThrow(/ENOENT/);
    const api = apiClient(gatewayUrl, { authorization: `Bearer ${token}` });
    // AUTH_CACHE_TTL_MS is 0 on this stack: refused at once.
    expect((await api('GET', '/v1/auth/session')).status).toBe(401);
    expect((await api('GET', '/v1/projects')).status).toBe(401);
    expect((await vrs(['whoami'], env)).code).toBe(3);
    expect(json(await vrs(['logout', '--json'], env))).toEqual({ apiUrl: gatewayUrl, removed: false, revoked: false });
  });

  it('the default login holds data:read only, and may still sign itself out (and only itself)', async () => {
    const own = { XDG_CONFIG_HOME: makeTempDir('vrs-cli-device-') };
    const login = startLogin([], own);
    const [, userCode] = await login.printed(/enter the code ([A-Z0-9]{4}-[A-Z0-9]{4})/);
    const [, link] = await login.printed(/\(or open (\S+)\)\./);
    await approveInBrowser(link!, userCode!);
    const done = await login.exited;
    expect(done.code, done.stderr).toBe(0);
    const who = json(await vrs(['whoami', '--json'], own));
    expect(who).toMatchObject({ credential: { kind: 'oauth' }, scopes: ['data:read'] });
    const readOnly = JSON.parse(await readFile(join(own.XDG_CONFIG_HOME, 'vrs', 'credentials.json'), 'utf8')).credentials[gatewayUrl].token;
    const api = apiClient(gatewayUrl, { authorization: `Bearer ${readOnly}` });

    // Signing out another session of the account still needs account:manage.
    const other = await api('DELETE', `/v1/auth/sessions/${user.sessionId}`);
    expect(other.status).toBe(403);
    expect(other.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { missing: ['account:manage'] } });

    expect(json(await vrs(['logout', '--json'], own))).toEqual({ apiUrl: gatewayUrl, removed: true, revoked: true });
    expect((await api('GET', '/v1/auth/session')).status).toBe(401);
    // The web session it could not sign out still works.
    expect((await apiClient(gatewayUrl, { cookie: user.cookie })('GET', '/v1/auth/session')).status).toBe(200);
  });
});
