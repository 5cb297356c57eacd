/**
 * The search port: full-text indexes of documents grouped in scopes (research: one scope per
 * project), ranked with BM25. Each scope carries a version: the version of the source (the
 * project's `indexVersion`, ADR 0003) whose documents the index is known to hold, so a caller can
 * tell what it must still load, and every process and replica converges on the same content.
 */

/** What one document's result shows besides its id, text and score; stored as given. */
export type StoredFields = Record<string, string | number>;

export interface SearchDocument {
  id: string;
  text: string;
  stored?: StoredFields;
}

export interface SearchHit {
  id: string;
  /** Higher is better; hits come best first, and scores never increase down the list. */
  score: number;
  text: string;
  stored: StoredFields;
}

/** Moves a scope's version from `from` to `to`, only if it is still `from` (compare-and-set). */
export interface VersionMove {
  from: number;
  to: number;
}

export interface SearchIndex {
  readonly kind: 'embedded' | 'mongo';
  /** The source version the scope reflects: 0 for a scope never indexed (or dropped). */
  version(scope: string): Promise<number>;
  /**
   * The version the scope was first built for: the target of its first move from 0 (0 until then).
   * A caller whose source removed documents after it (which marks cannot say) drops the scope and
   * builds it again.
   */
  builtFor(scope: string): Promise<number>;
  /**
   * Adds the documents, replacing any with the same id, then applies `move` if given. Returns false
   * (and still keeps the documents) when the version was no longer `move.from`. Large lists are
   * written in several short transactions, the version move in the last one: a crash in between
   * leaves the version where it was, so the caller loads the same documents again.
   */
  apply(scope: string, documents: SearchDocument[], move?: VersionMove): Promise<boolean>;
  /**
   * The best `limit` documents for the query words (any of them; those with more and rarer ones
   * first). Exact words first; only a page they cannot fill is widened to words the query words
   * begin (4+ letters) or are one typo away from (6+ letters), ranked after every exact hit.
   */
  search(scope: string, query: string, limit: number): Promise<SearchHit[]>;
  /** Forgets the scope's documents and version. */
  drop(scope: string): Promise<void>;
  close(): Promise<void>;
}
