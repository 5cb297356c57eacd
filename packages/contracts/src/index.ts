export * from './events';
export * from './errors';
export * from './prices';
export * from './shapes';
export * from './billing';
export * from './research';
export * from './provider';
export * from './trends';
