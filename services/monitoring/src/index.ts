export { createMonitoringModule, type MonitoringModuleOptions } from './module';
export { createMonitoringRouter, type MonitoringRouter } from './router';
export type { MonitoringModuleConfig } from './monitoring-deps';
