export type { SearchDocument, SearchHit, SearchIndex, StoredFields, VersionMove } from './port';
export { openEmbeddedSearch, openEmbeddedSearchInThread, type EmbeddedSearchOptions } from './embedded/embedded-search';
export { openSearch, type OpenSearchOptions } from './open-search';
export { rankDocuments } from './rank-documents';
export { createResultCache, type ResultCache, type ResultCacheOptions } from './result-cache';
export { queryFrequencies, type QueryFrequencies } from './query-frequencies';
