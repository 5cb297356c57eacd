export { createResearchModule, type ResearchModuleOptions } from './module';
export { createResearchRouter, type ResearchRouter } from './router';
