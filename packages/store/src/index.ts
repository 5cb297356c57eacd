export type { Collection, Store, StoreDocument, StoreScope } from './port';
export { DuplicateKeyError, StorageFullError } from './errors';
export { StoreLockedError } from './embedded/directory-lock';
export { openStore } from './open-store';
export { openEmbeddedStore } from './embedded/embedded-store';
export { findPage, mapPage, type PageRequest } from './pagination';
export { createRetentionSweeper, expiresAt, expiryIndex } from './retention';
export { deleteInBatches } from './delete-in-batches';
