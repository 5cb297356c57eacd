export { createAgentsModule, type AgentsModuleOptions } from './module';
export { createAgentsRouter, type AgentsRouter } from './router';
