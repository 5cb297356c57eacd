import type { Command } from 'commander';
import { action } from './action';

export function registerMcpCommand(program: Command) {
  program
    .command('mcp')
    .description('Serve the MCP tools over stdio (for Claude Desktop, Cursor, …), signed in as VRS_API_KEY or the stored credential')
    .action(
      action(async (ctx) => {
        // Loaded here, not at start-up: every other command starts faster without the MCP SDK.
        const [{ StdioServerTransport }, { createMcpServer }] = await Promise.all([
          import('@modelcontextprotocol/sdk/server/stdio.js'),
          import('@vrs/mcp'),
        ]);
        // stdout carries the protocol from here on: nothing else may print to it.
        const server = createMcpServer(await ctx.client());
        await server.connect(new StdioServerTransport());
        // Done when the client closes the session or its end of the pipe (a client that just exits).
        await new Promise<void>((resolve) => {
          server.server.onclose = () => resolve();
          process.stdin.once('end', () => resolve());
        });
        await server.close();
      }),
    );
}
