export * from './connect-to-running-service';
export * from './open-bus';
export * from './run-service-process';
export * from './runtime-record';
