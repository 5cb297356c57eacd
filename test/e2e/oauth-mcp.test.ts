import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type OAuthClientProvider, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { launchBrowser, type BrowserHandle } from '@vrs/testing/browser';
import { billingClient } from './device-flow-support';

const gatewayUrl = inject('gatewayUrl');
const billing = billingClient(inject('stackEnv'));

let browser: BrowserHandle;
let callbackServer: Server;
let callbackUrl: string;
/** Each authorization response the browser is sent back with, as the native app's loopback listener receives it (RFC 8252). */
const callbacks: URL[] = [];
beforeAll(async () => {
  browser = await launchBrowser();
  callbackServer = createServer((req, res) => {
    const url = new URL(req.url ?? '/', callbackUrl);
    // Only the redirect itself: a browser asks for /favicon.ico as well.
    if (url.pathname === '/callback') callbacks.push(url);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('You can close this window.');
  });
  await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/callback`;
});
afterAll(async () => {
  await browser?.close();
  callbackServer?.close();
});

/** What an MCP host keeps for one server: the SDK asks it for, and gives it, everything it needs. */
class MemoryProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier?: string;
  authorizationUrls: URL[] = [];
  get redirectUrl() {
    return callbackUrl;
  }
  get clientMetadata() {
    return {
      client_name: 'MCP SDK test host',
      redirect_uris: [callbackUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrls.push(url);
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    if (!this.verifier) throw new Error('no code verifier saved');
    return this.verifier;
  }
}

describe('an MCP client that knows only the /mcp URL', () => {
  it('discovers, registers, is approved in chromium, and lists and calls tools', async () => {
    const mcpUrl = new URL('/mcp', gatewayUrl);
    const provider = new MemoryProvider();
    // What a host does: connect; the 401 sends the SDK through discovery, registration and PKCE to the browser.
    const first = new Client({ name: 'oauth-e2e', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
    await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.client?.client_id).toMatch(/^oac_/);
    const authorizationUrl = provider.authorizationUrls[0]!;
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(new URL('/oauth/authorize', gatewayUrl).href);
    expect(Object.fromEntries(authorizationUrl.searchParams)).toMatchObject({
      code_challenge_method: 'S256',
      scope: 'data:read',
      resource: mcpUrl.href,
    });

    // A person signs in (the web session cookie) and approves in a real browser.
    const { accountId } = await billing.accounts.create.mutate({ initialCredits: 1000 });
    const session = await billing.sessions.create.mutate({ accountId, kind: 'web', scopes: null, ttlMs: 3_600_000 });
    const context = await browser.newContext();
    try {
      await context.addCookies([{ name: 'vrs_session', value: session.token, url: gatewayUrl }]);
      const page = await context.newPage();
      await page.goto(authorizationUrl.href);
      expect(await page.getByTestId('client-name').textContent()).toBe('MCP SDK test host');
      await page.getByRole('button', { name: 'Approve' }).click();
      await expect.poll(() => callbacks.length, { timeout: 30_000 }).toBeGreaterThan(0);
    } finally {
      await context.close();
    }
    const callback = callbacks.at(-1)!;
    expect(callback.searchParams.get('iss'), callback.href).toBe(gatewayUrl.replace(/\/$/, ''));
    const code = callback.searchParams.get('code');
    expect(code).toMatch(/^aoc_/);

    await transport.finishAuth(code!);
    expect(provider.saved?.access_token).toMatch(/^ato_/);
    expect(provider.saved?.refresh_token).toMatch(/^atr_/);

    const client = new Client({ name: 'oauth-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('get_transcript');
      const transcript = (await client.callTool({ name: 'get_transcript', arguments: { videoId: 'vrsFixture1' } })) as {
        isError?: boolean;
        content: { text: string }[];
      };
      expect(transcript.isError, transcript.content[0]?.text).toBeFalsy();
      expect(transcript.content[0]!.text).toContain('welcome to the fixture video');
    } finally {
      await client.close();
    }
    // The connector is one of the account's sessions, named after the client.
    const listed = await billing.sessions.list.query({ accountId });
    expect(listed.data.find((entry) => entry.kind === 'oauth')).toMatchObject({ label: 'MCP SDK test host', scopes: ['data:read'] });
  });
});
