import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'libsql';
import { describe, expect, inject, it } from 'vitest';
import { allScopes } from '@vrs/contracts';
import { apiClient, createApiKey, eventually, type ApiCall, type ApiResponse } from '@vrs/testing/api-client';
import { startGatewayProcess } from '@vrs/testing/processes';
import { linkIn, mailTo, waitForMail } from '@vrs/testing/smtp-inbox';
import { fakeYouTubeControl } from '@vrs/testing/upstreams/youtube/control-client';
import { postJson, signIn, uniqueEmail, type WebSession } from '@vrs/testing/web-session';
import { admit, agentsOperator, ended, laryngealQuestion } from './agents-support';
import { pollToken, requestDeviceCode } from './device-flow-support';

/*
 * Deleting an account (ADR 0033) over the shared stack: an account signed up by email, with a web
 * session, a CLI session from a device flow, an API key made over the API and a reset link, makes
 * one of everything through the public API, is deleted, and then every service's store is read
 * straight from its SQLite files under DATA_DIR (the services keep running) until nothing of it is
 * left but the anonymised account row and the ledger.
 */
const gatewayUrl = inject('gatewayUrl');
const inboxUrl = inject('mailInboxUrl');
const stackEnv = inject('stackEnv');
const youtube = fakeYouTubeControl(inject('youtubeUpstreamUrl'));
const logDir = inject('logDir');
const operator = agentsOperator(inject('agentsServiceUrl'), stackEnv.INTERNAL_TOKEN!);
/** A video no other suite watches or overrides: its comment count moves here so a monitor's check finds something. */
const watchedVideo = 'coldBrew006';

interface Mention {
  file: string;
  table: string;
  id: string;
  needle: string;
}

/** Every SQLite file under `dir` (stores and search indexes alike). */
async function databaseFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.db')).map((entry) => join(entry.parentPath, entry.name));
}

/**
 * Every row of every table of every database under DATA_DIR whose id or content holds one of
 * `needles`, compared case-insensitively (an address may be stored in any case), read-only beside
 * the running services: nothing here knows which collections exist. One pass per table.
 */
async function scan(needles: string[]): Promise<Mention[]> {
  const found: Mention[] = [];
  const lowered = needles.map((needle) => needle.toLowerCase());
  for (const file of await databaseFiles(stackEnv.DATA_DIR!)) {
    const db = new Database(file, { readonly: true });
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as {
        name: string;
      }[];
      for (const { name } of tables) {
        const quoted = `"${name.replaceAll('"', '""')}"`;
        const columns = (db.prepare(`PRAGMA table_info(${quoted})`).all() as { name: string }[]).map((column) => column.name);
        const text = `lower(${columns.map((column) => `coalesce(CAST("${column.replaceAll('"', '""')}" AS TEXT), '')`).join(" || ' ' || ")})`;
        const rowId = columns.includes('id') ? 'CAST(id AS TEXT)' : 'CAST(rowid AS TEXT)';
        const anyNeedle = lowered.map(() => `instr(${text}, ?) > 0`).join(' OR ');
        const rows = db.prepare(`SELECT ${rowId} AS id, ${text} AS text FROM ${quoted} WHERE ${anyNeedle}`).all(...lowered) as {
          id: string;
          text: string;
        }[];
        for (const row of rows) {
          lowered.forEach((needle, index) => {
            if (row.text.includes(needle))
              found.push({ file: file.slice(stackEnv.DATA_DIR!.length + 1), table: name, id: row.id, needle: needles[index]! });
          });
        }
      }
    } finally {
      db.close();
    }
  }
  return found;
}

/** The account's ledger lines, read straight from billing's store. */
function storedLedger(accountId: string): Record<string, unknown>[] {
  const db = new Database(join(stackEnv.DATA_DIR!, 'billing', 'store.db'), { readonly: true });
  try {
    const rows = db.prepare("SELECT doc FROM c_ledger WHERE json_extract(doc, '$.accountId') = ?").all(accountId) as { doc: string }[];
    return rows.map((row) => JSON.parse(row.doc) as Record<string, unknown>);
  } finally {
    db.close();
  }
}

/** The stored account document, read straight from billing's store. */
function storedAccount(accountId: string): Record<string, unknown> | undefined {
  const db = new Database(join(stackEnv.DATA_DIR!, 'billing', 'store.db'), { readonly: true });
  try {
    const row = db.prepare('SELECT doc FROM c_accounts WHERE id = ?').get(accountId) as { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as Record<string, unknown>) : undefined;
  } finally {
    db.close();
  }
}

/** Where a mention is: `<service folder>/<table>`. */
const placeOf = (mention: Mention) => `${mention.file.split('/')[0]}/${mention.table}`;

function ok(response: ApiResponse, status = 200): any {
  expect(response.status, response.text).toBe(status);
  return response.body;
}

/** Calls that reach a language model shared with other suites, which may be set to fail for a moment. */
function retried(call: () => Promise<ApiResponse>, what: string): Promise<any> {
  return eventually(
    async () => {
      const response = await call();
      return response.status === 200 ? response.body : undefined;
    },
    { timeoutMs: 45_000, intervalMs: 250, what },
  );
}

/** Checks the monitor now and waits for the new check (a pass moved elsewhere by another suite is retried). */
async function checkNow(api: ApiCall, monitorId: string, checksBefore: number): Promise<any> {
  return eventually(
    async () => {
      const checks = ok(await api('GET', `/v1/monitors/${monitorId}/checks`)).data as any[];
      if (checks.length > checksBefore) return checks[0];
      await api('POST', `/v1/monitors/${monitorId}/check`);
      return undefined;
    },
    { timeoutMs: 45_000, intervalMs: 300, what: `check ${checksBefore + 1} of ${monitorId}` },
  );
}

/** One of everything an account can own, made through the public API; the ids of what it made. */
async function makeOneOfEverything(api: ApiCall, accountId: string) {
  const projectId = ok(await api('POST', '/v1/projects', { json: { name: 'Everything' } })).id as string;
  ok(await api('POST', `/v1/projects/${projectId}/evidence`, { json: { items: [{ text: 'notes about cold brew ratios' }] } }));

  // An import with an Idempotency-Key: the job and the key's record.
  const imported = ok(
    await api('POST', `/v1/projects/${projectId}/imports`, {
      json: { source: { type: 'video', id: 'vrsFixture1' } },
      headers: { 'idempotency-key': `deletion-${accountId}` },
    }),
    202,
  );
  await eventually(async () => (ok(await api('GET', `/v1/jobs/${imported.id}`)).status === 'completed' ? true : undefined), {
    timeoutMs: 60_000,
    intervalMs: 250,
    what: 'the import to complete',
  });
  const exported = ok(await api('POST', '/v1/exports', { json: { projectId, format: 'json' } }), 202);
  await eventually(async () => (ok(await api('GET', `/v1/exports/${exported.id}`)).status === 'completed' ? true : undefined), {
    timeoutMs: 60_000,
    intervalMs: 250,
    what: 'the export file',
  });
  const comparison = await retried(
    () => api('POST', '/v1/comparisons', { json: { type: 'video', ids: ['vrsFixture1', 'rCAS2eD-mcw'] } }),
    'a comparison',
  );
  const answer = await retried(() => api('POST', '/v1/answers', { json: { question: 'cirque du soleil' } }), 'an answer');

  const report = ok(await api('GET', '/v1/providers/youtube/trends?q=cirque%20du%20soleil&mode=deterministic'));
  const plan = await retried(() => api('POST', '/v1/trends/plan', { json: { report } }), 'a video plan');

  await operator.access.allow.mutate({ accountId });
  const run = await admit(api, { message: laryngealQuestion });
  await ended(api, run, '', 60_000);

  // A video monitor whose check finds something: a notification, a delivery. The change is a
  // comment-count jump, not a views jump: a views jump is a rate, measured on the monitoring
  // process's clock, which the monitoring suite moves months back and forth while this file runs.
  const webhook = ok(await api('POST', '/v1/webhooks', { json: { url: 'http://127.0.0.1:9/unreachable', description: 'deletion' } }));
  ok(await api('PUT', '/v1/digests/preferences', { json: { frequency: 'daily', hourOfDay: 8, timezone: 'UTC', channels: ['in_app'] } }));
  const comments = Number(ok(await api('GET', `/v1/providers/youtube/videos/${watchedVideo}?refresh=true`)).commentCount);
  const monitor = ok(await api('POST', '/v1/monitors', { json: { query: { kind: 'video', id: watchedVideo }, intervalMinutes: 60 } }));
  // The first check is the baseline (listed first only while that clock stands still).
  await checkNow(api, monitor.id, 0);
  await youtube.setCounts({ videoId: watchedVideo, commentCount: comments * 2 + 10 });
  try {
    // Checks are asked for until one sees the jump: a "check now" sent while an earlier check was
    // running may run one more check that read the count before it moved.
    // What the checks and the last "check now" answered, named in the failure if none sees the jump.
    const seen = { outcomes: [] as string[], lastCheckStatus: 0 };
    const changed = await eventually(
      async () => {
        const checks = ok(await api('GET', `/v1/monitors/${monitor.id}/checks?limit=100`)).data as { outcome: string }[];
        seen.outcomes = checks.map((check) => check.outcome);
        if (checks.some((check) => check.outcome === 'changed')) return true;
        seen.lastCheckStatus = (await api('POST', `/v1/monitors/${monitor.id}/check`)).status;
        return undefined;
      },
      { timeoutMs: 45_000, intervalMs: 300, what: `a check of ${monitor.id} that sees the comment count jump` },
    ).catch((error: Error) => {
      throw new Error(`${error.message}; checks seen (newest first): ${JSON.stringify(seen)}`);
    });
    expect(changed).toBe(true);
  } finally {
    await youtube.setCounts({ videoId: watchedVideo, commentCount: comments });
  }
  const notifications = ok(await api('GET', '/v1/notifications')).notifications as { id: string }[];
  expect(notifications.length).toBeGreaterThan(0);

  return {
    projectId,
    jobId: imported.id as string,
    exportId: exported.id as string,
    comparisonId: comparison.id as string,
    answerId: answer.operationId as string,
    planId: plan.operationId as string,
    runId: run.runId,
    sessionId: run.sessionId,
    monitorId: monitor.id as string,
    webhookId: webhook.id as string,
  };
}

/** Calls with the session cookie and its CSRF token, as the web app's scripts would. */
const withCookie = (session: WebSession) =>
  apiClient(gatewayUrl, { cookie: session.cookie, 'x-csrf-token': session.csrfToken, accept: 'application/json' });

/** Signs up with `email` (any case) and a name, follows the verification link the SMTP inbox received, and signs in. */
async function signUp(email: string, name: string, password: string): Promise<WebSession> {
  const verificationMails = (await mailTo(inboxUrl, email)).filter((mail) => /verify/i.test(mail.subject)).length;
  const signedUp = await postJson(gatewayUrl, '/signup', { email, password, name });
  expect(signedUp.status, await signedUp.clone().text()).toBe(200);
  const mail = await waitForMail(inboxUrl, email, { subject: /verify/i, count: verificationMails + 1, timeoutMs: 20_000 });
  const verified = await fetch(linkIn(mail, `${gatewayUrl}/verify-email`), { headers: { accept: 'application/json' } });
  expect(verified.status, await verified.clone().text()).toBe(200);
  return signIn(gatewayUrl, email, password);
}

/** A CLI session from a real device flow, approved on /device by the signed-in account: its token and session id. */
async function cliSessionOf(session: WebSession): Promise<{ token: string; sessionId: string }> {
  const code = await requestDeviceCode(gatewayUrl, { scopes: ['data:read'], clientName: 'deletion CLI' });
  expect(code.status, code.text).toBe(200);
  const form = new URLSearchParams({ _csrf: session.csrfToken, user_code: code.body.user_code, decision: 'approve', scope: 'data:read' });
  const approved = await apiClient(gatewayUrl, { cookie: session.cookie, accept: 'application/json' })('POST', '/device', {
    rawBody: form.toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(approved.status, approved.text).toBe(200);
  // Decided before the first poll, so that poll is the exchange (no interval to wait).
  const token = await pollToken(gatewayUrl, code.body.device_code);
  expect(token.status, token.text).toBe(200);
  const cli = apiClient(gatewayUrl, { authorization: `Bearer ${token.body.access_token}` });
  const who = ok(await cli('GET', '/v1/auth/session'));
  expect(who).toMatchObject({ account: { id: session.accountId }, credential: { kind: 'cli_session' } });
  return { token: token.body.access_token as string, sessionId: who.credential.id as string };
}

describe('deleting an account (ADR 0033)', () => {
  it('refuses the cookie, the CLI token and the key at once, then every service removes what the account owned, leaving the anonymised account and ledger', {
    timeout: 300_000,
  }, async () => {
    // A real signed-up account: the address in mixed case (stored lower-cased), a name, a password.
    const email = uniqueEmail('Deletion').replace('Deletion', 'DeLeTion').replace('example.test', 'Example.Test');
    const name = `Deletion Tester ${Date.now().toString(36)}`;
    const password = 'a long enough deletion password';
    const web = await signUp(email, name, password);
    const accountId = web.accountId;
    const cookie = withCookie(web);
    expect(ok(await cookie('GET', '/v1/account'))).toMatchObject({ id: accountId, email: email.toLowerCase(), name, verified: true });

    // An API key made over the API with the cookie (and its CSRF token), holding every scope.
    const created = ok(await cookie('POST', '/v1/api-keys', { json: { name: 'deletion key', scopes: [...allScopes] } }));
    const key = created.key as string;
    const api = apiClient(gatewayUrl, { authorization: `Bearer ${key}` });
    const cli = await cliSessionOf(web);
    const cliApi = apiClient(gatewayUrl, { authorization: `Bearer ${cli.token}` });
    // A password-reset link, requested and mailed but not used: an email link row besides the used verification one.
    expect((await postJson(gatewayUrl, '/forgot-password', { email })).status).toBe(200);
    const resetMail = await waitForMail(inboxUrl, email, { subject: /new password/i, timeoutMs: 20_000 });
    const resetToken = new URL(linkIn(resetMail, `${gatewayUrl}/reset-password?token=`)).searchParams.get('token')!;

    const made = await makeOneOfEverything(api, accountId);
    const needles = [accountId, email, name, created.id as string, web.sessionId, cli.sessionId, ...Object.values(made)];

    // The scan finds the account's data in every service before the deletion (so it can fail after it).
    const before = await scan(needles);
    const placesBefore = new Set(before.map(placeOf));
    for (const place of [
      'billing/c_accounts',
      'billing/c_apiKeys',
      'billing/c_sessions',
      'billing/c_emailLinks',
      'billing/c_device_codes',
      'billing/c_ledger',
      'billing/c_reservations',
      'research/c_projects',
      'research/c_evidence',
      'research/c_jobs',
      'research/c_exports',
      'research/c_export_chunks',
      'research/c_comparisons',
      'research/c_operations',
      'research/c_idempotency_keys',
      'research/c_outbox',
      'trends/c_plans',
      'agents/c_agent_sessions',
      'agents/c_agent_runs',
      'agents/c_agent_run_steps',
      'agents/c_agent_run_events',
      'agents/c_agent_allowed_accounts',
      'monitoring/c_monitors',
      'monitoring/c_checks',
      'monitoring/c_notifications',
      'monitoring/c_webhooks',
      'monitoring/c_webhook_deliveries',
      'monitoring/c_digest_preferences',
      'monitoring/c_outbox',
    ]) {
      expect(placesBefore, place).toContain(place);
    }
    // The address (stored lower-cased, found whatever its case), the name, both sessions and the key by their ids.
    const foundBefore = (needle: string) => new Set(before.filter((mention) => mention.needle === needle).map(placeOf));
    expect(foundBefore(email)).toContain('billing/c_accounts');
    expect(foundBefore(name)).toContain('billing/c_accounts');
    expect(foundBefore(web.sessionId)).toContain('billing/c_sessions');
    expect(foundBefore(cli.sessionId)).toContain('billing/c_sessions');
    expect(foundBefore(cli.sessionId)).toContain('billing/c_device_codes');
    expect(foundBefore(created.id)).toContain('billing/c_apiKeys');
    expect(before.filter((mention) => mention.table === 'c_emailLinks' && mention.needle === accountId).length).toBeGreaterThanOrEqual(2);
    expect(storedLedger(accountId).some((line) => typeof line.requestId === 'string')).toBe(true);
    expect(storedAccount(accountId)).toMatchObject({ email: email.toLowerCase(), passwordHash: expect.stringMatching(/^scrypt\$/), name });

    // Deleted with the cookie: a write, so it needs the session's CSRF token; without it nothing happens.
    const forged = await apiClient(gatewayUrl, { cookie: web.cookie, accept: 'application/json' })('DELETE', '/v1/account');
    expect([forged.status, forged.body.error.code]).toEqual([403, 'CSRF_TOKEN_MISSING']);
    expect(ok(await cookie('GET', '/v1/account')).id).toBe(accountId);
    const deleted = await cookie('DELETE', '/v1/account');
    expect(deleted.status, deleted.text).toBe(202);
    expect(deleted.body).toEqual({ id: accountId, status: 'deleting', deletedAt: expect.any(String) });
    expect(Date.parse(deleted.body.deletedAt)).not.toBeNaN();

    // Every credential is refused at once, on every operation; deleting again is the same 401 (the credential is gone).
    for (const [method, path] of [
      ['GET', '/v1/billing'],
      ['GET', `/v1/projects/${made.projectId}`],
      ['DELETE', '/v1/account'],
    ] as const) {
      for (const [credential, call, code] of [
        ['key', api, 'INVALID_API_KEY'],
        ['cookie', cookie, 'SESSION_INVALID'],
        ['CLI token', cliApi, 'SESSION_INVALID'],
      ] as const) {
        const refused = await call(method, path);
        expect(refused.status, `${credential}: ${method} ${path}`).toBe(401);
        expect(refused.body.error.code, `${credential}: ${method} ${path}`).toBe(code);
      }
    }
    expect((await apiClient(gatewayUrl, { 'x-api-key': key })('GET', '/v1/billing')).status).toBe(401);
    // The address no longer signs in (the same answer as a wrong password), and the reset link no longer works.
    const signInAgain = await postJson(gatewayUrl, '/signin', { email, password });
    expect([signInAgain.status, ((await signInAgain.json()) as { error: { code: string } }).error.code]).toEqual([
      401,
      'INVALID_CREDENTIALS',
    ]);
    const reset = await postJson(gatewayUrl, '/reset-password', { token: resetToken, password: 'a password set after deletion' });
    expect([reset.status, ((await reset.json()) as { error: { code: string } }).error.code]).toEqual([400, 'LINK_INVALID']);

    // Every service removes its part; left are the account row (anonymised) and the ledger.
    const allowed = new Set(['billing/c_accounts', 'billing/c_ledger']);
    const left = await eventually(
      async () => {
        const remaining = await scan(needles);
        return remaining.every((mention) => allowed.has(placeOf(mention))) ? remaining : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 500, what: 'every service to remove the account' },
    ).catch(async (error: unknown) => {
      const remaining = (await scan(needles)).filter((mention) => !allowed.has(placeOf(mention)));
      throw new Error(`${(error as Error).message}; still there: ${JSON.stringify(remaining.slice(0, 20))}`);
    });
    // The account row holds its id and nothing personal: no address, no name, no password hash.
    expect(left.filter((mention) => mention.table === 'c_accounts')).toEqual([
      { file: 'billing/store.db', table: 'c_accounts', id: accountId, needle: accountId },
    ]);
    const tombstone = storedAccount(accountId)!;
    expect(tombstone).toMatchObject({ _id: accountId, name: null, deletedAt: deleted.body.deletedAt });
    for (const field of ['email', 'passwordHash', 'emailVerifiedAt']) expect(tombstone, field).not.toHaveProperty(field);
    expect(JSON.stringify(tombstone)).not.toContain('scrypt');
    // The ledger keeps amounts for accounting, never a request id (the caller may have chosen it).
    const ledger = left.filter((mention) => mention.table === 'c_ledger');
    expect(ledger.length).toBeGreaterThan(0);
    expect(new Set(ledger.map((mention) => mention.needle))).toEqual(new Set([accountId]));
    const lines = storedLedger(accountId);
    expect(lines.length).toBe(new Set(ledger.map((mention) => mention.id)).size);
    for (const line of lines) expect(line.requestId, String(line._id)).toBeNull();
  });

  it('a deleted address cannot sign in; signing up with it again opens a brand-new account', async () => {
    const email = uniqueEmail('again');
    const password = 'a long enough password again';
    const first = await signUp(email, 'First', password);
    expect(ok(await withCookie(first)('DELETE', '/v1/account'), 202)).toMatchObject({ id: first.accountId, status: 'deleting' });

    const refused = await postJson(gatewayUrl, '/signin', { email, password });
    expect([refused.status, ((await refused.json()) as { error: { code: string } }).error.code]).toEqual([401, 'INVALID_CREDENTIALS']);

    // The same address signs up as anyone new would: a verification mail, then a fresh account.
    const second = await signUp(email, 'Second', password);
    expect(second.accountId).not.toBe(first.accountId);
    const account = ok(await withCookie(second)('GET', '/v1/account'));
    expect(account).toMatchObject({ id: second.accountId, email, name: 'Second', verified: true });
    expect(ok(await withCookie(second)('GET', '/v1/projects')).data).toEqual([]);
    // The first account stays deleted: its cookie is refused, its row holds no address.
    expect((await withCookie(first)('GET', '/v1/account')).status).toBe(401);
    expect(storedAccount(first.accountId)).not.toHaveProperty('email');
  });

  it('a demo value whose account was deleted is refused, and no new account is opened for it', async () => {
    const demo = apiClient(gatewayUrl, { 'x-demo-user': `deleted-demo-${Date.now()}` });
    const accountId = ok(await demo('GET', '/v1/billing')).accountId as string;
    expect(ok(await demo('DELETE', '/v1/account'), 202)).toMatchObject({ id: accountId, status: 'deleting' });
    for (let attempt = 0; attempt < 2; attempt++) {
      const refused = await demo('GET', '/v1/billing');
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe('ACCOUNT_DELETED');
    }
  });

  it('a key without account:manage cannot delete the account', async () => {
    const { key } = await createApiKey(stackEnv, { scopes: ['data:read', 'billing:read'] });
    const api = apiClient(gatewayUrl, { authorization: `Bearer ${key}` });
    const refused = await api('DELETE', '/v1/account');
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { missing: ['account:manage'] } });
    // The key still works for what it holds (GET /v1/billing would need billing:read).
    expect((await api('GET', '/v1/projects')).status).toBe(200);
  });

  it('every gateway replica refuses the cached keys, sessions and demo values of a deleted account at once, not after its auth cache expires', {
    timeout: 180_000,
  }, async () => {
    // Caches that would trust a key, a session (web or CLI) or a demo value for ten minutes.
    const env = { ...stackEnv, AUTH_CACHE_TTL_MS: '600000' };
    const replicas = await Promise.all([
      startGatewayProcess('gateway-deletion-a', env, logDir),
      startGatewayProcess('gateway-deletion-b', env, logDir),
    ]);
    try {
      const [a, b] = replicas.map((replica) => replica.url);
      const { key } = await createApiKey(stackEnv);
      const demoUser = { 'x-demo-user': `replicas-demo-${Date.now()}` };
      const web = await signUp(uniqueEmail('replicas'), 'Replicas', 'a long enough replicas password');
      const cli = await cliSessionOf(web);
      const keyed = (url: string) => apiClient(url, { authorization: `Bearer ${key}` });
      const demo = (url: string) => apiClient(url, demoUser);
      const cookied = (url: string) => apiClient(url, { cookie: web.cookie, 'x-csrf-token': web.csrfToken, accept: 'application/json' });
      const cliToken = (url: string) => apiClient(url, { authorization: `Bearer ${cli.token}` });
      // What each credential may read: the CLI session holds data:read only.
      const credentials = [
        { what: 'key', call: keyed, path: '/v1/billing' },
        { what: 'demo value', call: demo, path: '/v1/billing' },
        { what: 'cookie', call: cookied, path: '/v1/auth/session' },
        { what: 'CLI token', call: cliToken, path: '/v1/auth/session' },
      ];
      for (const url of [a!, b!]) {
        for (const { what, call, path } of credentials) expect((await call(url)('GET', path)).status, `${what} on ${url}`).toBe(200);
      }

      expect((await keyed(a!)('DELETE', '/v1/account')).status).toBe(202);
      expect((await demo(a!)('DELETE', '/v1/account')).status).toBe(202);
      expect((await cookied(a!)('DELETE', '/v1/account')).status).toBe(202);
      // The replica that served the deletions dropped its caches itself.
      for (const { what, call, path } of credentials) expect((await call(a!)('GET', path)).status, `${what} on a`).toBe(401);
      // The other one on billing.account.deleted, within moments.
      for (const { what, call, path } of credentials) {
        await eventually(async () => ((await call(b!)('GET', path)).status === 401 ? true : undefined), {
          timeoutMs: 20_000,
          intervalMs: 100,
          what: `replica b to refuse the deleted account's ${what}`,
        });
      }
    } finally {
      await Promise.all(replicas.map((replica) => replica.stop()));
    }
  });
});
