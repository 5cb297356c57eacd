export { createProviderModule, type ProviderModuleOptions } from './module';
export { createProviderRouter, type ProviderRouter } from './router';
