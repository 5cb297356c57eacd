export { createMonitoringModule, type MonitoringModuleOptions } from './module';
export { createMonitoringRouter, type MonitoringRouter } from './router';
