import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { repoRoot } from '@vrs/kit';
import { apiClient, createApiKey, eventually, type ApiCall } from '@vrs/testing/api-client';
import { hasRecorded, hasSynthetic } from '@vrs/testing/upstreams/youtube/fixture-dirs';
import { agentsOperator, laryngealQuestion } from './agents-support';

const gatewayUrl = inject('gatewayUrl');
const stackEnv = inject('stackEnv');

const allTools = [
  'cited_answer',
  'get_agent_run',
  'get_channel',
  'get_comments',
  'get_playlist',
  'get_transcript',
  'get_video',
  'list_channel_playlists',
  'search_project',
  'search_youtube',
  'start_agent_run',
  'trend_report',
  'write_report',
];

interface ToolResult {
  isError?: boolean;
  content: { type: string; text: string }[];
  _meta?: {
    credits?: { charged: number; remaining: number };
    requestId?: string;
    error?: { code: string; message: string; status: number };
  };
}

async function balanceOf(api: ApiCall): Promise<number> {
  return (await api('GET', '/v1/billing')).body.credits.balance;
}

/** An account with a key, a project holding searchable notes, and agent runs allowed. */
async function newAccount() {
  const { key, accountId } = await createApiKey(stackEnv, { credits: 1000 });
  const api = apiClient(gatewayUrl, { authorization: `Bearer ${key}` });
  const projectId = (await api('POST', '/v1/projects', { json: { name: 'MCP espresso' } })).body.id as string;
  const added = await api('POST', `/v1/projects/${projectId}/evidence`, {
    json: {
      items: [
        {
          text: 'Grind size controls extraction: finer grinds extract espresso faster.',
          sourceKey: 'note:grind',
          entityId: 'vid1',
          startMs: 1200,
        },
        {
          text: 'Espresso brew ratio of one to two gives a balanced espresso shot.',
          sourceKey: 'note:ratio',
          entityId: 'vid2',
          startMs: 0,
        },
      ],
    },
  });
  expect(added.status, added.text).toBe(200);
  await eventually(async () =>
    (await api('GET', `/v1/projects/${projectId}/search?q=espresso`)).body.results.length >= 2 ? true : undefined,
  );
  await agentsOperator(inject('agentsServiceUrl'), stackEnv.INTERNAL_TOKEN!).access.allow.mutate({ accountId });
  return { key, api, projectId };
}

/**
 * The same checks over each transport: tools listed with their input schemas, every tool called
 * with a result, credits in `_meta` matching what the account was charged, and the API's errors as
 * MCP tool errors carrying the envelope's code.
 */
function describeTransport(name: string, connect: (key: string) => Promise<Client>) {
  describe(`MCP over ${name}`, () => {
    let client: Client;
    let account: Awaited<ReturnType<typeof newAccount>>;
    const call = async (tool: string, args: Record<string, unknown>) =>
      (await client.callTool({ name: tool, arguments: args })) as ToolResult;

    beforeAll(async () => {
      account = await newAccount();
      client = await connect(account.key);
    });
    afterAll(async () => {
      await client?.close();
    });

    it('lists every tool with a description and a JSON schema of its input', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(allTools);
      for (const tool of tools) {
        expect(tool.description!.length, tool.name).toBeGreaterThan(20);
        expect(tool.inputSchema.type).toBe('object');
      }
      const transcript = tools.find((tool) => tool.name === 'get_transcript')!;
      expect(transcript.inputSchema.required).toEqual(['videoId']);
      expect(Object.keys(transcript.inputSchema.properties ?? {}).sort()).toEqual(['lang', 'videoId']);
    });

    it('charges each call what REST charges and reports it in _meta.credits', async () => {
      const before = await balanceOf(account.api);
      const transcript = await call('get_transcript', { videoId: 'vrsFixture1' });
      expect(transcript.isError, transcript.content[0]?.text).toBeFalsy();
      expect(transcript.content[0]!.text).toBe(
        [
          'Transcript of vrsFixture1 (en)',
          '[00:00] welcome to the fixture video',
          '[00:02] captions are timed word by word',
          '[00:05] so tests can check srt and vtt',
        ].join('\n'),
      );
      const { charged, remaining } = transcript._meta!.credits!;
      expect(charged).toBeGreaterThan(0);
      expect(remaining).toBe(before - charged);
      expect(await balanceOf(account.api)).toBe(remaining);

      const found = await call('search_project', { projectId: account.projectId, query: 'espresso ratio' });
      expect(found._meta!.credits).toEqual({ charged: 1, remaining: remaining - 1 });
      expect(JSON.parse(found.content[0]!.text).results[0]).toMatchObject({ entityId: 'vid2' });
      expect(await balanceOf(account.api)).toBe(remaining - 1);
    });

    it('answers an API error as a tool error with the envelope code, and charges nothing for it', async () => {
      const before = await balanceOf(account.api);
      const missing = await call('search_project', { projectId: '00000000-0000-4000-8000-000000000000', query: 'espresso' });
      expect(missing.isError).toBe(true);
      expect(missing.content[0]!.text).toMatch(/^PROJECT_NOT_FOUND: .+ \(requestId \S+\)$/);
      expect(missing._meta!.error).toMatchObject({ code: 'PROJECT_NOT_FOUND', status: 404 });
      expect(await balanceOf(account.api)).toBe(before);
      // Input the schema refuses never reaches the API.
      const invalid = await call('get_video', { videoId: '' });
      expect(invalid.isError).toBe(true);
      expect(await balanceOf(account.api)).toBe(before);
    });

    it('calls the project, answer and report tools', async () => {
      const report = await call('write_report', { projectId: account.projectId, prompt: 'espresso grind and ratio' });
      expect(report.isError, report.content[0]?.text).toBeFalsy();
      expect(JSON.parse(report.content[0]!.text)).toMatchObject({ answer: expect.any(String), citations: expect.any(Array) });
      expect(report._meta!.credits!.charged).toBe(5);
    });

    it.skipIf(!hasRecorded)(
      'calls the YouTube tools: search, video, comments, channel, playlists, trends, cited answer',
      async () => {
        const results: Record<string, ToolResult> = {
          search_youtube: await call('search_youtube', { query: 'cold brew' }),
          get_video: await call('get_video', { videoId: 'vrsFixture1' }),
          get_comments: await call('get_comments', { videoId: 'xaQJbozY_Is', limit: 3 }),
          get_channel: await call('get_channel', { channelId: '@EEVblog' }),
          list_channel_playlists: await call('list_channel_playlists', { channelId: '@EEVblog' }),
          get_playlist: await call('get_playlist', { playlistId: 'PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr' }),
          trend_report: await call('trend_report', { topic: 'cirque du soleil' }),
          cited_answer: await call('cited_answer', { question: 'cirque du soleil' }),
        };
        for (const [tool, result] of Object.entries(results)) {
          expect(result.isError, `${tool}: ${result.content[0]?.text}`).toBeFalsy();
          expect(result._meta!.credits!.charged, tool).toBeGreaterThan(0);
        }
        expect(JSON.parse(results.search_youtube!.content[0]!.text).videos[0]).toMatchObject({ id: 'coldBrew001' });
        expect(JSON.parse(results.get_video!.content[0]!.text)).toMatchObject({ id: 'vrsFixture1' });
        expect(JSON.parse(results.get_comments!.content[0]!.text).comments).toHaveLength(3);
        expect(JSON.parse(results.trend_report!.content[0]!.text).videos[0]).toMatchObject({
          trendScore: expect.any(Number),
          trendBand: expect.any(String),
        });
        expect(JSON.parse(results.cited_answer!.content[0]!.text).citations.length).toBeGreaterThan(0);
      },
      60_000,
    );

    it.skipIf(!hasRecorded || !hasSynthetic)(
      'starts an agent run and follows it to its answer',
      async () => {
        const started = await call('start_agent_run', { message: laryngealQuestion });
        expect(started.isError, started.content[0]?.text).toBeFalsy();
        const { sessionId, runId } = JSON.parse(started.content[0]!.text);
        const run = await eventually(
          async () => {
            const status = JSON.parse((await call('get_agent_run', { sessionId, runId })).content[0]!.text);
            return ['completed', 'failed', 'cancelled'].includes(status.status) ? status : undefined;
          },
          { timeoutMs: 30_000, intervalMs: 250, what: 'the agent run to end' },
        );
        expect(run).toMatchObject({ status: 'completed', result: { outcome: 'answered' } });
        expect(run.result.sources.length).toBeGreaterThan(0);
      },
      60_000,
    );
  });
}

/** The stdio server's config directory: made in a beforeAll, so removed after the file's tests. */
let stdioConfigDir: string | undefined;
afterAll(async () => {
  if (stdioConfigDir) await rm(stdioConfigDir, { recursive: true, force: true });
});

describeTransport('stdio (`vrs mcp`)', async (key) => {
  stdioConfigDir = await mkdtemp(join(tmpdir(), 'vrs-mcp-config-'));
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(repoRoot, 'packages/cli/bin/vrs.mjs'), 'mcp'],
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH!,
        VRS_API_URL: gatewayUrl,
        VRS_API_KEY: key,
        XDG_CONFIG_HOME: stdioConfigDir,
      },
      stderr: 'pipe',
    }),
  );
  return client;
});

describeTransport('Streamable HTTP (/mcp on the gateway)', async (key) => {
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', gatewayUrl), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
  );
  return client;
});

describe('/mcp authentication', () => {
  it('refuses a missing or unknown bearer in the envelope with WWW-Authenticate, before any tool runs', async () => {
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const anonymous = await fetch(new URL('/mcp', gatewayUrl), { method: 'POST', headers, body: JSON.stringify(message) });
    expect(anonymous.status).toBe(401);
    // RFC 9728 §5.1: where an OAuth client finds how to get a token (ADR 0095).
    expect(anonymous.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${new URL('/.well-known/oauth-protected-resource/mcp', gatewayUrl).href}", scope="data:read"`,
    );
    expect(((await anonymous.json()) as any).error).toMatchObject({ code: 'UNAUTHENTICATED', requestId: expect.any(String) });

    const wrong = await fetch(new URL('/mcp', gatewayUrl), {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer aty_${'x'.repeat(40)}` },
      body: JSON.stringify(message),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token", resource_metadata="/);
    expect(((await wrong.json()) as any).error.code).toBe('INVALID_API_KEY');

    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL('/mcp', gatewayUrl)))).rejects.toThrow(/UNAUTHENTICATED/);
  });

  it('answers GET and DELETE with 405: the endpoint is stateless', async () => {
    const response = await fetch(new URL('/mcp', gatewayUrl), { headers: { authorization: 'Bearer x' } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(((await response.json()) as any).error.code).toBe('METHOD_NOT_ALLOWED');
  });
});
