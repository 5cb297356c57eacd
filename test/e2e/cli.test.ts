import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '@vrs/kit';
import { priceOf } from '@vrs/contracts';
import { apiClient, createApiKey, eventually } from '@vrs/testing/api-client';
import { makeTempDir } from '@vrs/testing/temp-dir';
import { hasRecorded, hasSynthetic } from '@vrs/testing/upstreams/youtube/fixture-dirs';
import { agentsOperator, laryngealQuestion } from './agents-support';

const gatewayUrl = inject('gatewayUrl');
const stackEnv = inject('stackEnv');
const vrsBin = join(repoRoot, 'packages/cli/bin/vrs.mjs');

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `vrs` as a user would: its own process, real HTTP, its own config dir, no colours. */
function vrs(args: string[], env: Record<string, string | undefined> = {}, stdin?: string): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [vrsBin, ...args],
      {
        cwd: repoRoot,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', VRS_API_URL: gatewayUrl, ...env },
        timeout: 60_000,
      },
      (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    if (stdin !== undefined) child.stdin!.end(stdin);
  });
}

const json = (run: CliRun) => {
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
};

/** A port nothing listens on: bound, read, released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let env: Record<string, string>;
let accountId: string;
/** The project the import test filled, exported later. */
let importedProjectId: string;

beforeAll(async () => {
  const created = await createApiKey(stackEnv, { credits: 500 });
  accountId = created.accountId;
  env = { VRS_API_KEY: created.key, XDG_CONFIG_HOME: await mkdtemp(join(tmpdir(), 'vrs-cli-config-')) };
});
afterAll(() => rm(env.XDG_CONFIG_HOME!, { recursive: true, force: true }));

// Each step starts a process (tsx compiles on start), slow on a busy machine.
const slow = { timeout: 120_000 };

describe('vrs: projects, import, search, transcript', slow, () => {
  it('creates, lists and deletes a project, each as parseable --json', async () => {
    const name = `cli ${randomUUID().slice(0, 8)}`;
    const created = json(await vrs(['projects', 'create', name, '--json'], env));
    expect(created).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name });
    const listed = json(await vrs(['projects', 'list', '--json'], env));
    expect(listed.data.map((project: { id: string }) => project.id)).toContain(created.id);
    const human = await vrs(['projects', 'list'], env);
    expect(human.stdout).toContain(name);
    expect(json(await vrs(['projects', 'delete', created.id, '--json'], env))).toEqual({ id: created.id, deleted: true });
  });

  it('imports a video with progress until the job completes, and the evidence is searchable', async () => {
    const project = json(await vrs(['projects', 'create', 'cli import', '--json'], env));
    importedProjectId = project.id;
    const imported = await vrs(['import', project.id, '--video', 'vrsFixture1', '--poll-ms', '100'], env);
    expect(imported.code, imported.stderr).toBe(0);
    // The hold is the 202's own figures: the job's creditsHeld, and its headers' charge and balance.
    const held = /Import job job_\S+ pending: (\d+) credits held until it ends \(charged now: 0, balance: (\d+)\)\./.exec(imported.stderr);
    expect(held, imported.stderr).not.toBeNull();
    expect(Number(held![1])).toBe(priceOf('createImport'));
    expect(Number(held![1])).toBeGreaterThan(0);
    // Without a terminal the progress is one line per change, ending at the finished count, and no
    // count is printed before the job has one.
    expect(imported.stderr).toMatch(/importing: 1\/1 videos \(completed\)/);
    expect(imported.stderr).not.toMatch(/0\/0/);
    expect(imported.stdout).toMatch(/Job job_\S+: completed \(1\/1 videos\)/);

    const hits = await eventually(
      async () => {
        const found = json(await vrs(['search', 'captions timed', '--project', project.id, '--json'], env));
        const chunks = found.results.filter((hit: { sourceKey?: string }) => hit.sourceKey === 'youtube:video:vrsFixture1:transcript:0');
        return chunks.length > 0 ? chunks : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 200, what: 'the imported transcript to be searchable' },
    );
    expect(hits[0]).toMatchObject({ entityId: 'vrsFixture1', startMs: 0, text: expect.stringContaining('captions are timed') });
  });

  it('writes a transcript to an .srt file, and prints it as text', async () => {
    const file = join(makeTempDir('vrs-cli-srt-'), 'fixture.srt');
    const saved = await vrs(['transcript', 'vrsFixture1', '--format', 'srt', '-o', file], env);
    expect(saved.code, saved.stderr).toBe(0);
    const srt = await readFile(file, 'utf8');
    expect(srt).toMatch(/^1\r?\n00:00:00,000 --> 00:00:02,400\r?\nwelcome to the fixture video/);
    expect(srt).toContain('so tests can check srt and vtt');
    const text = await vrs(['transcript', 'vrsFixture1'], env);
    expect(text.stdout.trim()).toBe('welcome to the fixture video captions are timed word by word so tests can check srt and vtt');
  });

  it('exports the imported project: created, waited for, downloaded to a file', async () => {
    const file = join(makeTempDir('vrs-cli-export-'), 'evidence.json');
    const exported = await vrs(['export', importedProjectId, '--format', 'json', '-o', file, '--poll-ms', '100'], env);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toMatch(/^Saved \d+ bytes to .+evidence\.json\.$/m);
    const saved = await readFile(file, 'utf8');
    expect(Number(/Saved (\d+) bytes/.exec(exported.stdout)![1])).toBe(Buffer.byteLength(saved));
    expect(saved).toContain('captions are timed word by word');
  });

  it.skipIf(!hasRecorded)(
    'prints trends as a table of score, band, views/hour and acceleration, by score, counting the report’s videos',
    async () => {
      const trends = await vrs(['trends', 'cirque du soleil', '--mode', 'deterministic'], env);
      expect(trends.code, trends.stderr).toBe(0);
      const [title, header, ...rows] = trends.stdout.split('\n').filter((line) => line.trim() && !/^[┌└─]/.test(line));
      const counted = /^cirque du soleil · (\d+) videos, by trend score · confidence (low|medium|high)$/.exec(title!);
      expect(counted, title).not.toBeNull();
      expect(header).toMatch(/#.+title.+channel.+score.+band.+views\/h.+accel\./);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows[0]).toMatch(/│ 1 .+(Breakout|Rising|Steady|Cooling)/);
      // The count is the report's, not the sample size asked for; the rows go by score, highest first.
      const report = json(await vrs(['trends', 'cirque du soleil', '--mode', 'deterministic', '--json'], env));
      expect(Number(counted![1])).toBe(report.videos.length);
      // One table row per video (a row starts with its number); a long title may wrap onto more lines.
      const numbered = rows.filter((row) => /^│ \d+ /.test(row));
      expect(numbered).toHaveLength(report.videos.length);
      const scores = numbered.map((row) => Number(row.split('│')[4]!.trim()));
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      expect(scores).toEqual(
        report.videos.map((video: { trendScore: number }) => Number(video.trendScore.toFixed(1))).sort((a: number, b: number) => b - a),
      );
    },
  );

  it('indents the further lines of a multi-line evidence item under its number', async () => {
    const project = json(await vrs(['projects', 'create', 'cli multi-line', '--json'], env));
    const text = 'zebrafinch first line\nzebrafinch second line\nthird line';
    const added = await apiClient(gatewayUrl, { authorization: `Bearer ${env.VRS_API_KEY}` })(
      'POST',
      `/v1/projects/${project.id}/evidence`,
      {
        json: { items: [{ text }] },
      },
    );
    expect(added.status, added.text).toBeLessThan(300);
    const found = await eventually(
      async () => {
        const run = await vrs(['search', 'zebrafinch', '--project', project.id], env);
        return run.stdout.includes('zebrafinch') ? run : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 200, what: 'the added evidence to be searchable' },
    );
    expect(found.stdout).toContain('1. zebrafinch first line\n   zebrafinch second line\n   third line');
  });

  it('shows credits and the account as JSON', async () => {
    const credits = json(await vrs(['credits', '--json'], env));
    expect(credits).toMatchObject({ accountId, credits: { balance: expect.any(Number) } });
    expect(credits.credits.balance).toBeLessThan(500);
    expect(json(await vrs(['whoami', '--json'], env))).toMatchObject({ accountId, apiUrl: gatewayUrl });
  });
});

describe.skipIf(!hasRecorded || !hasSynthetic)('vrs agent ask', slow, () => {
  it('streams the run events live, then prints the answer with numbered citations', async () => {
    await agentsOperator(inject('agentsServiceUrl'), stackEnv.INTERNAL_TOKEN!).access.allow.mutate({ accountId });
    const asked = await vrs(['agent', 'ask', laryngealQuestion], env);
    expect(asked.code, asked.stderr).toBe(0);
    const events = asked.stderr.split('\n');
    // The stream: the run starts, steps happen, then it completes.
    expect(events.findIndex((line) => /• running/.test(line))).toBeGreaterThanOrEqual(0);
    expect(events.some((line) => line.startsWith('  › '))).toBe(true);
    expect(events.findIndex((line) => /• completed/.test(line))).toBeGreaterThan(events.findIndex((line) => /• running/.test(line)));
    expect(asked.stdout).toMatch(/\[1\] .+ https:\/\/www\.youtube\.com\/watch\?v=/);
    // The hold, from the 202's body and headers.
    expect(asked.stderr).toMatch(/Run [0-9a-f-]{36} pending: [1-9]\d* credits held until it ends \(charged now: 0, balance: \d+\)\./);
    // Every [n] the answer cites is listed, each once, even when two cite one source.
    const [answer] = asked.stdout.split('\n\n');
    const cited = [...new Set([...answer!.matchAll(/\[(\d+)\]/g)].map((match) => match[1]))];
    expect(cited.length).toBeGreaterThan(0);
    for (const n of cited) expect(asked.stdout.split('\n').filter((line) => line.startsWith(`[${n}] `))).toHaveLength(1);
    // Warnings print as `! CODE: message`, never as JSON.
    for (const line of asked.stdout.split('\n').filter((line) => line.startsWith('! '))) expect(line).toMatch(/^! [A-Z_]+: \S/);
    expect(asked.stdout).toMatch(/session [0-9a-f-]{36} · run [0-9a-f-]{36} · answered/);

    const asJson = await vrs(['agent', 'ask', laryngealQuestion, '--json'], env);
    const run = json(asJson);
    expect(run).toMatchObject({ status: 'completed', result: { outcome: 'answered', sources: expect.any(Array) } });
    // With --json, each event is a JSON line on stderr.
    const streamed = asJson.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(streamed.at(-1)).toMatchObject({ event: 'status', status: 'completed' });
  });
});

describe('vrs: exit codes per error class, each error with its message and requestId', slow, () => {
  it('2 for usage errors: an unknown option, a bad number, a request the API refuses as invalid', async () => {
    expect((await vrs(['projects', 'list', '--bogus'], env)).code).toBe(2);
    expect((await vrs(['projects', 'list', '--limit', 'many'], env)).code).toBe(2);
    const invalid = await vrs(['search', '   '], env);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(/code: QUERY_REQUIRED \(HTTP 422\)/);
    expect(invalid.stderr).toMatch(/requestId: \S+/);
  });

  it('3 for auth errors: no credential at all, or a key the API does not know', async () => {
    const none = await vrs(['projects', 'list'], { XDG_CONFIG_HOME: env.XDG_CONFIG_HOME });
    expect(none.code).toBe(3);
    expect(none.stderr).toContain('Not signed in');
    const wrong = await vrs(['projects', 'list', '--json'], { ...env, VRS_API_KEY: `aty_${'x'.repeat(40)}` });
    expect(wrong.code).toBe(3);
    const envelope = JSON.parse(wrong.stderr);
    expect(envelope.error).toMatchObject({ code: 'INVALID_API_KEY', status: 401, requestId: expect.any(String) });
  });

  it('4 for insufficient credits', async () => {
    const broke = await createApiKey(stackEnv, { credits: 0 });
    const refused = await vrs(['projects', 'create', 'no money'], { ...env, VRS_API_KEY: broke.key });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/code: INSUFFICIENT_CREDITS \(HTTP 402\)/);
    expect(refused.stderr).toMatch(/requestId: \S+/);
  });

  it('3 with what to do when agent runs are not enabled for the account', async () => {
    const notAllowed = await createApiKey(stackEnv, { credits: 50 });
    const refused = await vrs(['agent', 'ask', 'anything'], { ...env, VRS_API_KEY: notAllowed.key });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/code: AGENTS_NOT_ENABLED \(HTTP 403\)/);
    expect(refused.stderr).toContain('npm run agents:allow -- --account <accountId>');
    expect((await vrs(['agent', 'ask', '--help'], env)).stdout).toContain('npm run agents:allow');
  });

  it('5 for not found', async () => {
    const missing = await vrs(['projects', 'delete', randomUUID()], env);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toMatch(/code: PROJECT_NOT_FOUND \(HTTP 404\)/);
  });

  it('6 when the API cannot be reached', async () => {
    const down = await vrs(['projects', 'list'], { ...env, VRS_API_URL: `http://127.0.0.1:${await closedPort()}` });
    expect(down.code).toBe(6);
    expect(down.stderr).toMatch(/Could not reach the API \(ECONNREFUSED\)/);
  });
});

describe('vrs login --with-api-key, whoami, logout', slow, () => {
  it('stores the key with mode 0600, then works without VRS_API_KEY until logout', async () => {
    const config = makeTempDir('vrs-cli-login-');
    const stored = await vrs(['login', '--with-api-key'], { XDG_CONFIG_HOME: config }, `${env.VRS_API_KEY}\n`);
    expect(stored.code, stored.stderr).toBe(0);
    const file = join(config, 'vrs', 'credentials.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8')).credentials[gatewayUrl]).toMatchObject({ kind: 'api_key', token: env.VRS_API_KEY });

    expect(json(await vrs(['whoami', '--json'], { XDG_CONFIG_HOME: config }))).toMatchObject({ accountId });
    expect((await vrs(['logout'], { XDG_CONFIG_HOME: config })).code).toBe(0);
    expect((await vrs(['whoami'], { XDG_CONFIG_HOME: config })).code).toBe(3);

    const typo = await vrs(['login', '--with-api-key'], { XDG_CONFIG_HOME: config }, 'aty_not-a-key\n');
    expect(typo.code).toBe(3);
    await expect(stat(file)).rejects.toThrow(/ENOENT/);
  });
});
