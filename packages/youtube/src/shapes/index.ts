export * from './common';
export * from './video';
export * from './transcript';
export * from './comments';
export * from './playlist';
export * from './search';
export * from './channel';
