export { createTrendsModule, type TrendsModuleOptions } from './module';
export { createTrendsRouter, type TrendsRouter } from './router';
export type { TrendsModuleConfig } from './trends-deps';
