export type {
  Collection,
  Filter,
  FindOneAndUpdateOptions,
  FindOptions,
  IndexSpec,
  Store,
  StoreDocument,
  StoreScope,
  Update,
  UpdateResult,
} from './port';
export { DuplicateKeyError, StorageFullError } from './errors';
export { StoreLockedError } from './embedded/directory-lock';
export { openStore, type OpenStoreOptions } from './open-store';
export { openEmbeddedStore, type EmbeddedStoreOptions } from './embedded/embedded-store';
export { findPage, mapPage, type ListedDocument, type PageRequest } from './pagination';
export {
  createRetentionSweeper,
  deleteExpired,
  type ExpiringDocument,
  expiresAt,
  expiryIndex,
  type RetentionSweeper,
  type RetentionSweeperOptions,
} from './retention';
export { deleteInBatches } from './delete-in-batches';
