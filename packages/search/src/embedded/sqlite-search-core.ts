import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'libsql';
import { mergeWidened, minFuzzyLength, minPrefixLength, queryWords, roundScore } from '../query-words';
import type { SearchDocument, SearchHit, StoredFields, VersionMove } from '../port';
import { releasePageCacheAfterWrites } from '@vrs/store/embedded/page-cache-release';
import { ByteBudgetLru } from './byte-budget-lru';
import { type CachedDocument, DocumentCache, type DocumentRow } from './document-cache';
import {
  type PostingsStats,
  PostingsRanking,
  type RankedRow,
  ScoreBuffer,
  type SharedPostings,
  type WriteRecord,
} from './postings-ranking';
import { scopeFileName } from './scope-file';
import { ScopeVocabulary } from './scope-vocabulary';
import { byCodePoint, lowest, typoVariants } from './typo-variants';

type Db = InstanceType<typeof Database>;

export interface SqliteSearchOptions {
  /** Scope databases kept open; the least recently used one is closed beyond it (reopened on demand). */
  maxOpenScopes?: number;
  /** SQLite page cache per open scope, in KiB. */
  cacheKiB?: number;
  /** Bytes of cached postings and document lengths, all open scopes together (ADR 0052). */
  postingsCacheBytes?: number;
  /** Documents a scope needs for its plain-word queries to be ranked from cached postings rather than by FTS5 (ADRs 0052, 0112). */
  postingsMinDocuments?: number;
}

/** Bytes of cached documents of the pages ranked from postings, all open scopes together: a 10k-chunk project's (ADR 0122). */
const documentCacheBytes = 16 * 1024 * 1024;
/** Fuzzy candidates per query word: enough for real typos, bounded so a widened query stays small. */
const maxFuzzyVariants = 16;
/** Words a prefix may begin for its phrase to be ranked from cached postings: a seek and a merge each. */
const maxPrefixWords = 64;

/**
 * FTS5 with an external content table: `docs` holds each document once (id, text, stored fields),
 * `fts` indexes its text (Unicode words, lower-cased, diacritics folded), `vocab` lists the indexed
 * words with their document counts, `terms` the same words one row per occurrence (its first row
 * comes without walking the word's postings, which typo matching needs), `meta` holds the scope's
 * version.
 */
const schema = `
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS docs(rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, text TEXT NOT NULL, stored TEXT NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(text, content='docs', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE IF NOT EXISTS vocab USING fts5vocab(fts, row);
CREATE VIRTUAL TABLE IF NOT EXISTS terms USING fts5vocab(fts, instance);
`;

class ScopeDb {
  /** Writes go through this connection. */
  readonly db: Db;
  /**
   * Searches and version reads go through this one, which never writes. A connection that has
   * indexed keeps FTS5's table of pending words at its largest size, and walks all of it on every
   * prefix or vocabulary seek: after 10k chunks, a misspelt word's search took twice as long there.
   * An in-memory scope has one connection, used for both.
   */
  private readonly reader: Db;
  private readonly statements;
  /** Valid until the next write, by this process or, as the postings ranking tells, by any other. */
  private readonly vocabulary: ScopeVocabulary;
  private readonly ranking: PostingsRanking;
  /** The documents of pages ranked from postings, emptied with the postings (another connection wrote). */
  private readonly documents: DocumentCache;
  /** Write transactions run (`apply`), for letting the writer's page cache go after a burst of them. */
  private writes = 0;
  private readonly stopPageCacheRelease: () => void = () => undefined;

  constructor(file: string, cacheKiB: number, postings: SharedPostings, documentBudget: ByteBudgetLru) {
    this.db = new Database(file);
    // WAL + synchronous=NORMAL: each transaction is atomic (documents and version agree after any
    // crash); the last ones may be lost on power failure, and are then loaded again from the store.
    this.db.exec(`PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=5000; PRAGMA cache_size=-${cacheKiB};`);
    this.db.exec(schema);
    if (file === ':memory:') this.reader = this.db;
    else {
      this.reader = new Database(file);
      // libsql's Database takes no read-only option; query_only makes SQLite refuse writes here.
      this.reader.exec(`PRAGMA query_only=ON; PRAGMA busy_timeout=5000; PRAGMA cache_size=-${cacheKiB};`);
      // Searches read through the reader, so what the writer caches serves only the next writes.
      this.stopPageCacheRelease = releasePageCacheAfterWrites({
        writes: () => this.writes,
        release: () => {
          this.db.exec('PRAGMA shrink_memory');
          return true;
        },
      });
    }
    this.statements = {
      version: this.reader.prepare("SELECT value FROM meta WHERE key = 'version'"),
      versionToMove: this.db.prepare("SELECT value FROM meta WHERE key = 'version'"),
      builtFor: this.reader.prepare("SELECT value FROM meta WHERE key = 'built_for'"),
      setBuiltFor: this.db.prepare(
        "INSERT INTO meta(key, value) VALUES('built_for', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
      ),
      setVersion: this.db.prepare(
        "INSERT INTO meta(key, value) VALUES('version', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
      ),
      existing: this.db.prepare('SELECT rowid, text FROM docs WHERE id = ?'),
      insertDoc: this.db.prepare('INSERT INTO docs(id, text, stored) VALUES (?, ?, ?)'),
      updateDoc: this.db.prepare('UPDATE docs SET text = ?, stored = ? WHERE rowid = ?'),
      indexText: this.db.prepare('INSERT INTO fts(rowid, text) VALUES (?, ?)'),
      unindexText: this.db.prepare("INSERT INTO fts(fts, rowid, text) VALUES('delete', ?, ?)"),
      // The top rows by BM25 alone, then their documents: only `limit` rows are joined.
      search: this.reader.prepare(
        // Ordered by bm25() itself: FTS5's own `rank` column sorts every match and is twice as slow.
        `SELECT d.id, d.text, d.stored, -s.bm25 AS score
         FROM (SELECT rowid, bm25(fts) AS bm25 FROM fts WHERE fts MATCH ? ORDER BY bm25 LIMIT ?) s
         JOIN docs d ON d.rowid = s.rowid ORDER BY s.bm25, d.id`,
      ),
      documentCount: this.reader.prepare("SELECT value FROM meta WHERE key = 'documents'"),
      countDocuments: this.db.prepare(
        "INSERT INTO meta(key, value) VALUES('documents', ?) ON CONFLICT(key) DO UPDATE SET value = value + excluded.value",
      ),
      // Every write transaction counts itself, so a cache can tell whether any other one came between.
      countWrite: this.db.prepare(
        "INSERT INTO meta(key, value) VALUES('writes', 1) ON CONFLICT(key) DO UPDATE SET value = value + 1 RETURNING value AS writes",
      ),
      docsByRowid: this.reader.prepare('SELECT rowid, id, text, stored FROM docs WHERE rowid IN (SELECT value FROM json_each(?))'),
    };
    this.ranking = new PostingsRanking(this.reader, this.db, postings);
    this.vocabulary = new ScopeVocabulary(this.reader, postings.budget, () => this.ranking.tokenCount);
    this.documents = new DocumentCache(documentBudget);
  }

  version(): number {
    const row = this.statements.version.get() as { value: number } | undefined;
    return row?.value ?? 0;
  }

  builtFor(): number {
    const row = this.statements.builtFor.get() as { value: number } | undefined;
    return row?.value ?? 0;
  }

  apply(documents: SearchDocument[], move?: VersionMove): boolean {
    const s = this.statements;
    this.vocabulary.clear();
    this.writes++;
    let record: WriteRecord | undefined;
    const write = this.db.transaction(() => {
      const inserted: { rowid: number; text: string }[] = [];
      const rewritten: number[] = [];
      for (const doc of documents) {
        const stored = JSON.stringify(doc.stored ?? {});
        const existing = s.existing.get(doc.id) as { rowid: number; text: string } | undefined;
        if (!existing) {
          const rowid = Number(s.insertDoc.run(doc.id, doc.text, stored).lastInsertRowid);
          s.indexText.run(rowid, doc.text);
          inserted.push({ rowid, text: doc.text });
          continue;
        }
        // Its text or stored fields change: a page read after this write reads it again.
        this.documents.forget(existing.rowid);
        // The old text is taken out of the index with the words it had, so BM25's statistics
        // count every document once, whatever its history.
        if (existing.text !== doc.text) s.unindexText.run(existing.rowid, existing.text);
        s.updateDoc.run(doc.text, stored, existing.rowid);
        if (existing.text !== doc.text) {
          s.indexText.run(existing.rowid, doc.text);
          rewritten.push(existing.rowid);
        }
      }
      if (inserted.length > 0) s.countDocuments.run(inserted.length);
      const { writes } = s.countWrite.get() as { writes: number };
      record = this.ranking.recordWrite(writes - 1, inserted, rewritten);
      if (!move) return true;
      // Read inside the write transaction: the compare-and-set holds against any other writer.
      if (((s.versionToMove.get() as { value: number } | undefined)?.value ?? 0) !== move.from) return false;
      s.setVersion.run(move.to);
      if (move.from === 0) s.setBuiltFor.run(move.to);
      return true;
    });
    try {
      return write() as boolean;
    } catch (error) {
      record = undefined;
      throw error;
    } finally {
      this.ranking.followWrite(record);
    }
  }

  private run(match: string, limit: number): SearchHit[] {
    const rows = this.statements.search.all(match, limit) as { id: string; text: string; stored: string; score: number }[];
    return rows.map((row) => ({
      id: row.id,
      text: row.text,
      stored: JSON.parse(row.stored) as StoredFields,
      score: roundScore(row.score),
    }));
  }

  /**
   * The query words that carry weight: FTS5's BM25 gives a word in half or more of the documents
   * the idf floor (1e-6), so it adds at most ~2e-6 to a score and only breaks near-ties. Matching
   * without such words spares scoring nearly every document of the scope when a query mixes them
   * with rarer ones ("sourdough crumb" in a project about sourdough); the caller falls back to all
   * words when the weighted ones cannot fill the page.
   */
  private weightedWords(words: string[]): string[] {
    if (words.length < 2) return words;
    const documents = (this.statements.documentCount.get() as { value: number } | undefined)?.value ?? 0;
    return words.filter((word) => this.documentsWith(word) * 2 < documents);
  }

  private documentsWith(word: string): number {
    const cached = this.ranking.documentsWith(word);
    if (cached !== undefined) return cached;
    return this.vocabulary.documentsWith(word);
  }

  /** The exact words' ranking: from cached postings when the scope is large enough to keep them, else FTS5's. */
  private rankExact(words: string[], limit: number): SearchHit[] {
    const ranked = this.ranking.rank(
      words.map((word) => [word]),
      limit,
    );
    // Words are letters and digits only, so quoting them makes each a plain FTS5 string.
    return ranked ? this.hitsOf(ranked) : this.run(words.map((word) => `"${word}"`).join(' OR '), limit);
  }

  /**
   * The widened query's ranking: each word, the words it begins (from four letters) and those one
   * edit away (from six), as one FTS5 OR query, or from cached postings where every phrase can be:
   * FTS5 merges a prefix's postings from the index on every query (12 ms at 100k chunks for five
   * letters), where cached postings are merged in memory (ADR 0112). Undefined when nothing widens.
   */
  private rankWidened(words: string[], limit: number): SearchHit[] | undefined {
    const fts5Terms: string[] = [];
    const phrases: string[][] = [];
    let rankable = true;
    for (const word of words) {
      fts5Terms.push(`"${word}"`);
      phrases.push([word]);
      if (word.length >= minPrefixLength) {
        fts5Terms.push(`"${word}"*`);
        const begun = this.wordsBeginning(word);
        if (begun) phrases.push(begun);
        else rankable = false;
      }
      if (word.length < minFuzzyLength) continue;
      for (const variant of typoVariants(this.vocabulary, word, maxFuzzyVariants)) {
        fts5Terms.push(`"${variant}"`);
        phrases.push([variant]);
      }
    }
    if (fts5Terms.length === words.length) return undefined;
    const ranked = rankable ? this.ranking.rank(phrases, limit) : undefined;
    return ranked ? this.hitsOf(ranked) : this.run(fts5Terms.join(' OR '), limit);
  }

  /** The terms `prefix` begins, one vocabulary seek each; undefined beyond `maxPrefixWords`, left to FTS5. */
  private wordsBeginning(prefix: string): string[] | undefined {
    const begun: string[] = [];
    for (let term = this.vocabulary.firstFrom(prefix); term?.startsWith(prefix); term = this.vocabulary.firstFrom(term + lowest)) {
      if (begun.length === maxPrefixWords) return undefined;
      begun.push(term);
    }
    return begun;
  }

  /** The ranked rows' documents, ordered as the FTS5 query orders them: by score, then id. */
  private hitsOf(ranked: RankedRow[]): SearchHit[] {
    const documents = this.documents.get(
      ranked.map(({ rowid }) => rowid),
      (missing) => this.statements.docsByRowid.all(JSON.stringify(missing)) as DocumentRow[],
    );
    const hits: { document: CachedDocument; score: number }[] = [];
    for (const { rowid, score } of ranked) {
      const document = documents.get(rowid);
      if (document) hits.push({ document, score });
    }
    return hits
      .sort((a, b) => b.score - a.score || byCodePoint(a.document.id, b.document.id))
      .map(({ document: { id, text, stored }, score }) => ({ id, text, stored, score: roundScore(score) }));
  }

  search(query: string, limit: number): SearchHit[] {
    const words = queryWords(query);
    if (words.length === 0 || limit < 1) return [];
    // One read transaction: the cached postings, the statistics and the documents are of one snapshot.
    this.reader.exec('BEGIN');
    try {
      if (this.ranking.begin()) {
        this.vocabulary.clear();
        this.documents.clear();
      }
      return this.searchWords(words, limit);
    } finally {
      this.reader.exec('COMMIT');
    }
  }

  private searchWords(words: string[], limit: number): SearchHit[] {
    const weighted = this.weightedWords(words);
    if (weighted.length > 0 && weighted.length < words.length) {
      const hits = this.rankExact(weighted, limit);
      if (hits.length >= limit) return hits;
    }
    const exact = this.rankExact(words, limit);
    if (exact.length >= limit) return exact;
    const widened = this.rankWidened(words, limit);
    return widened ? mergeWidened(exact, widened, limit) : exact;
  }

  close(): void {
    this.stopPageCacheRelease();
    this.ranking.clear();
    this.vocabulary.clear();
    this.documents.clear();
    if (this.reader !== this.db) this.reader.close();
    this.db.close();
  }
}

/**
 * The embedded engine's synchronous core: one SQLite database (FTS5) per scope under `dir`, so
 * BM25's statistics are the scope's own (a project's ranking never depends on other projects), a
 * scope is dropped by deleting its file, and open scopes are bounded by an LRU. With `dir` null the
 * databases live in memory (a one-off ranking; see `rankDocuments`).
 */
export class SqliteSearchCore {
  private readonly open = new Map<string, ScopeDb>();
  private readonly maxOpenScopes: number;
  private readonly cacheKiB: number;
  private readonly postings: SharedPostings;
  private readonly documentBudget: ByteBudgetLru;

  constructor(
    private readonly dir: string | null,
    options: SqliteSearchOptions = {},
  ) {
    if (dir !== null) mkdirSync(dir, { recursive: true });
    this.maxOpenScopes = options.maxOpenScopes ?? 64;
    this.cacheKiB = options.cacheKiB ?? 8192;
    this.postings = {
      budget: new ByteBudgetLru(options.postingsCacheBytes ?? 64 * 1024 * 1024),
      scores: new ScoreBuffer(),
      minDocuments: options.postingsMinDocuments ?? 1_000,
      stats: { rankedFromPostings: 0, postingsReads: 0, lengthsReads: 0 },
    };
    this.documentBudget = new ByteBudgetLru(documentCacheBytes);
  }

  /** The postings cache of all scopes: its bytes, and what it answered and read since the start. */
  postingsCache(): PostingsStats & { bytes: number } {
    return { bytes: this.postings.budget.bytes, ...this.postings.stats };
  }

  private scopeDb(scope: string): ScopeDb {
    let db = this.open.get(scope);
    if (db) {
      // Map order is the LRU order: re-inserting marks the scope most recently used.
      this.open.delete(scope);
      this.open.set(scope, db);
      return db;
    }
    db = new ScopeDb(
      this.dir === null ? ':memory:' : join(this.dir, scopeFileName(scope)),
      this.cacheKiB,
      this.postings,
      this.documentBudget,
    );
    this.open.set(scope, db);
    for (const [oldest, oldestDb] of this.open) {
      if (this.open.size <= this.maxOpenScopes) break;
      oldestDb.close();
      this.open.delete(oldest);
    }
    return db;
  }

  version(scope: string): number {
    return this.scopeDb(scope).version();
  }

  builtFor(scope: string): number {
    return this.scopeDb(scope).builtFor();
  }

  apply(scope: string, documents: SearchDocument[], move?: VersionMove): boolean {
    return this.scopeDb(scope).apply(documents, move);
  }

  search(scope: string, query: string, limit: number): SearchHit[] {
    return this.scopeDb(scope).search(query, limit);
  }

  drop(scope: string): void {
    this.open.get(scope)?.close();
    this.open.delete(scope);
    if (this.dir === null) return;
    const file = join(this.dir, scopeFileName(scope));
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  }

  close(): void {
    for (const db of this.open.values()) db.close();
    this.open.clear();
  }
}
