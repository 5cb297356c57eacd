import type { Request, RequestHandler } from 'express';
import { createVrsClient } from '@vrs/client';
import { AppError, createLogger, internalTokenHeader, requestLogFields } from '@vrs/kit';
import { sendError } from '../errors/envelope';
import { bearerToken } from '../auth/authenticator';
import { issuerOf } from '../oauth/clients';

/** What an OAuth client asks for when /mcp sends it to sign in: reading, which every tool needs. */
const mcpScope = 'data:read';

const log = createLogger('gateway');

/** The MCP SDK is loaded by the first `/mcp` message, not at start: a gateway nobody reaches over MCP need not carry it. */
let loadedMcp: Promise<[typeof import('@vrs/mcp'), typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js')]> | undefined;

/** The gateway's own address as this request reached it: tool calls go back through the public REST path. */
function selfUrl(req: Request): string {
  const address = req.socket.localAddress ?? '127.0.0.1';
  return `http://${address.includes(':') ? `[${address}]` : address}:${req.socket.localPort}`;
}

/**
 * `POST /mcp`: the MCP server over Streamable HTTP, stateless (a fresh server and transport per
 * message, so any replica answers any message). Every tool is a REST call to this gateway with the
 * caller's bearer credential, so scopes, metering and the per-account rate limit apply as over REST
 * (ADR 0037); the internal token marks those calls as ours, so the per-IP limit is not counted twice.
 */
export function mcpRoute(options: { internalToken: string | undefined; publicBaseUrl: string | undefined }): RequestHandler {
  return async (req, res) => {
    const token = bearerToken(req);
    // RFC 9728 §5.1: where an MCP client finds the authorization server (MCP authorization, ADR 0095).
    const metadata = `resource_metadata="${issuerOf(req, options.publicBaseUrl)}/.well-known/oauth-protected-resource/mcp"`;
    if (req.authError) {
      res.setHeader('WWW-Authenticate', `Bearer error="invalid_token", ${metadata}`);
      sendError(res, req.authError, req.requestId);
      return;
    }
    if (!token || !req.principal) {
      res.setHeader('WWW-Authenticate', `Bearer ${metadata}, scope="${mcpScope}"`);
      sendError(
        res,
        new AppError(
          'UNAUTHENTICATED',
          'The MCP endpoint needs `Authorization: Bearer <API key, CLI session or OAuth access token>`; OAuth clients discover how to get one from WWW-Authenticate.',
        ),
        req.requestId,
      );
      return;
    }
    const client = createVrsClient({
      baseUrl: selfUrl(req),
      token,
      headers: options.internalToken ? { [internalTokenHeader]: options.internalToken } : {},
    });
    try {
      loadedMcp ??= Promise.all([import('@vrs/mcp'), import('@modelcontextprotocol/sdk/server/streamableHttp.js')]);
      const [{ createMcpServer }, { StreamableHTTPServerTransport }] = await loadedMcp;
      const server = createMcpServer(client);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      log.error({ err: error, ...requestLogFields(req) }, 'mcp request failed');
      if (!res.headersSent) sendError(res, new AppError('INTERNAL_ERROR'), req.requestId);
    }
  };
}

/** Stateless: there is no session to stream to (GET) or end (DELETE). */
export const mcpMethodNotAllowed: RequestHandler = (req, res) => {
  res.setHeader('Allow', 'POST');
  sendError(
    res,
    new AppError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on /mcp; send JSON-RPC messages with POST.`),
    req.requestId,
  );
};
