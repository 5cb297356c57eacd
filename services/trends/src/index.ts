export { createTrendsModule, type TrendsModuleOptions } from './module';
export { createTrendsRouter, type TrendsRouter } from './router';
