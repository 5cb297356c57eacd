export { createMcpServer, mcpServerInfo } from './server';
