export { createBillingModule, type BillingModuleOptions } from './module';
export { billingRouter, type BillingRouter } from './router';
export { billingModuleConfigOf, type BillingModuleConfig } from './billing-deps';
