export { createMcpServer } from './server';
