export * from './open-bus';
export * from './run-service-process';
