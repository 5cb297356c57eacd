export type { SearchDocument, SearchHit, SearchIndex, StoredFields, VersionMove } from './port';
export { openEmbeddedSearchInThread, type EmbeddedSearchOptions } from './embedded/embedded-search';
