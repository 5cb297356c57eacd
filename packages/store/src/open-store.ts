import { join } from 'node:path';
import { openEmbeddedStore } from './embedded/embedded-store';
import type { Store } from './port';

export interface OpenStoreOptions {
  /** Database name on MongoDB, folder name under dataDir for the embedded store. */
  service: string;
  mongodbUrl?: string;
  dataDir: string;
  /** Embedded store only: see EmbeddedStoreOptions.synchronous. */
  synchronous?: 'normal' | 'full';
}

/** MongoDB when a URL is given, else the embedded store under `dataDir/service`. */
export async function openStore({ service, mongodbUrl, dataDir, synchronous }: OpenStoreOptions): Promise<Store> {
  if (!mongodbUrl) return openEmbeddedStore(join(dataDir, service), { synchronous });
  // Imported on demand so embedded mode never loads the driver.
  const { openMongoStore } = await import('./mongo/mongo-store');
  return openMongoStore(mongodbUrl, service);
}
