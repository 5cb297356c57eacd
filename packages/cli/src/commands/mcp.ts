import type { Command } from 'commander';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from '@vrs/mcp';
import { action } from './action';

export function registerMcpCommand(program: Command) {
  program
    .command('mcp')
    .description('Serve the MCP tools over stdio (for Claude Desktop, Cursor, …), signed in as VRS_API_KEY or the stored credential')
    .action(
      action(async (ctx) => {
        // stdout carries the protocol from here on: nothing else may print to it.
        const server = createMcpServer(await ctx.client());
        await server.connect(new StdioServerTransport());
        await new Promise<void>((resolve) => {
          server.server.onclose = () => resolve();
        });
      }),
    );
}
