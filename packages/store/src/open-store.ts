import { join } from 'node:path';
import { tracingConfigured } from '@vrs/kit';
import { openEmbeddedStore } from './embedded/embedded-store';
import type { Store } from './port';
import { tracedStore } from './traced-store';

export interface OpenStoreOptions {
  /** Database name on MongoDB, folder name under dataDir for the embedded store. */
  service: string;
  mongodbUrl?: string;
  dataDir: string;
  /** Embedded store only: see EmbeddedStoreOptions.synchronous. */
  synchronous?: 'normal' | 'full';
}

/** MongoDB when a URL is given, else the embedded store under `dataDir/service`; with a span per transaction when tracing. */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  const store = await openUntraced(options);
  return tracingConfigured() ? tracedStore(store, options.service) : store;
}

async function openUntraced({ service, mongodbUrl, dataDir, synchronous }: OpenStoreOptions): Promise<Store> {
  if (!mongodbUrl) return openEmbeddedStore(join(dataDir, service), { synchronous });
  // Imported on demand so embedded mode never loads the driver.
  const { openMongoStore } = await import('./mongo/mongo-store');
  return openMongoStore(mongodbUrl, service);
}
