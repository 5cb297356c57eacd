import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { VrsClient } from '@vrs/client';
import { registerTools } from './tools';

const mcpServerInfo = { name: 'video-research-service', version: '1.0.0' };

/** An MCP server whose every tool is a public REST call made with `client` (the caller's credential). */
export function createMcpServer(client: VrsClient): McpServer {
  const server = new McpServer(mcpServerInfo, {
    instructions:
      'Tools for researching YouTube through the Video Research Service: search, video metadata, transcripts, comments, channels, playlists, trends, research projects, cited answers, reports and agent runs. Calls cost credits; each result reports them in _meta.credits.',
  });
  registerTools(server, client);
  return server;
}
