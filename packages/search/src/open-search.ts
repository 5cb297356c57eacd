import { join } from 'node:path';
import { openEmbeddedSearch } from './embedded/embedded-search';
import type { SearchIndex } from './port';

export interface OpenSearchOptions {
  /** Folder name under dataDir (embedded), database name (mongo). */
  service: string;
  /** `embedded` (default): SQLite under `dataDir/<service>-search`; `mongo`: Mongo Search at mongodbUrl. */
  engine: 'embedded' | 'mongo';
  dataDir: string;
  mongodbUrl?: string;
}

/** The engine a service's configuration names; the Mongo driver is loaded only when it is used. */
export async function openSearch({ service, engine, dataDir, mongodbUrl }: OpenSearchOptions): Promise<SearchIndex> {
  if (engine === 'embedded') return openEmbeddedSearch(join(dataDir, `${service}-search`));
  if (!mongodbUrl) throw new Error('SEARCH_ENGINE=mongo needs MONGODB_URL');
  const { openMongoSearch } = await import('./mongo/mongo-search');
  return openMongoSearch(mongodbUrl, { database: service });
}
