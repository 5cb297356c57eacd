import type Database from 'libsql';
import type { ByteBudgetLru } from './byte-budget-lru';

type Db = InstanceType<typeof Database>;

/** FTS5's bm25() constants (fts5_aux.c). */
const k1 = 1.2;
const b = 0.75;
/** FTS5's idf for a word in half or more of the rows, where the formula gives zero or less. */
const idfFloor = 1e-6;

/**
 * Query words FTS5's tokenizer keeps exactly as they are: lower-case ASCII letters and digits (a
 * word with other letters may be folded, "café" to "cafe", so its term is not the word itself).
 */
const plainWord = /^[a-z0-9]+$/;
/**
 * Text whose tokens a JS split finds exactly as unicode61 does: ASCII (no folding), and beyond it
 * only punctuation transcripts carry that unicode61 always separates on (categories Zs, Pd, Pi,
 * Pf, Po, So; its token characters are L*, N* and Co): no-break space, guillemets, en and em
 * dashes, curly quotes, the ellipsis and ♪.
 */
const plainText = /^[\p{ASCII}\u00a0\u00ab\u00bb\u2013\u2014\u2018\u2019\u201c\u201d\u2026\u266a]*$/u;
/** unicode61's tokens in plain text: runs of ASCII letters and digits; every other character separates. */
const asciiTokens = /[a-z0-9]+/g;
/**
 * Without lengths cached, a query is ranked here only once it and the queries FTS5 ranked since they
 * were last read match this share of the scope's documents: the read never costs more than the FTS5
 * scoring it replaces (ADR 0112).
 */
const coldLengthsFraction = 1 / 8;
/** What a cached word costs besides its arrays (its map entry and objects), for the byte budget. */
const wordOverheadBytes = 128;

/** An SQLite varint at `offset` of `bytes` (big-endian base 128; a ninth byte counts all 8 bits). */
function readVarint(bytes: Uint8Array, offset: number): { value: number; next: number } {
  let value = 0;
  for (let i = 0; i < 8; i++) {
    const byte = bytes[offset + i] ?? 0;
    value = value * 128 + (byte & 0x7f);
    if (byte < 0x80) return { value, next: offset + i + 1 };
  }
  return { value: value * 256 + (bytes[offset + 8] ?? 0), next: offset + 9 };
}

type Statement = ReturnType<Db['prepare']>;

/** The first column of a raw statement's first row (libsql's `pluck` does not apply to `get`). */
function firstColumn<T>(statement: Statement, parameters: unknown[] = []): T {
  return (statement.get(parameters) as unknown[])[0] as T;
}

/** The value of one digit of SQLite's `hex()` (upper case). */
function hexDigit(code: number): number {
  return code <= 57 ? code - 48 : code - 55;
}

/** Decodes into `values` the varints `hex` holds (`hex()` of their concatenation), one after another. */
function decodeHexVarints(hex: string, values: Uint32Array): void {
  let at = 0;
  let value = 0;
  let bytes = 0;
  for (let i = 0; i < hex.length; i += 2) {
    const byte = (hexDigit(hex.charCodeAt(i)) << 4) | hexDigit(hex.charCodeAt(i + 1));
    // A ninth byte counts all its 8 bits (no token count comes near needing one).
    const last = ++bytes === 9 || byte < 0x80;
    value = bytes === 9 ? value * 256 + byte : value * 128 + (byte & 0x7f);
    if (!last) continue;
    values[at++] = value;
    value = 0;
    bytes = 0;
  }
}

/** Token counts of consecutive rowids: `values[i]` is rowid `first + i`'s (0 for a rowid with no row). */
interface LengthRun {
  first: number;
  values: Uint32Array;
}

/** One word's documents (rowids ascending) and how often each holds it, as FTS5 counts. */
class WordPostings {
  constructor(
    public rowids: Uint32Array,
    public frequencies: Uint32Array,
    public length: number,
  ) {}

  /** From the word's occurrences as `group_concat(doc)` of an fts5vocab instance table lists them: in rowid order, one per occurrence. */
  static fromOccurrences(docs: string | null): WordPostings {
    let capacity = docs === null ? 0 : 1;
    for (let i = 0; docs !== null && i < docs.length; i++) if (docs.charCodeAt(i) === 44) capacity++;
    const rowids = new Uint32Array(capacity);
    const frequencies = new Uint32Array(capacity);
    let length = 0;
    let rowid = 0;
    for (let i = 0; docs !== null && i <= docs.length; i++) {
      const code = i < docs.length ? docs.charCodeAt(i) : 44;
      if (code !== 44) {
        rowid = rowid * 10 + (code - 48);
        continue;
      }
      if (length > 0 && rowids[length - 1] === rowid) frequencies[length - 1] = (frequencies[length - 1] ?? 0) + 1;
      else {
        rowids[length] = rowid;
        frequencies[length++] = 1;
      }
      rowid = 0;
    }
    return new WordPostings(rowids.slice(0, length), frequencies.slice(0, length), length);
  }

  /**
   * The documents holding any of the words, with the words' occurrences summed: the postings of a
   * prefix phrase. Merged in halves, so each posting is copied once per level (log₂ of the words)
   * rather than once per word after it.
   */
  static union(lists: readonly WordPostings[]): WordPostings {
    const [first] = lists;
    if (lists.length <= 1) return first ?? new WordPostings(new Uint32Array(0), new Uint32Array(0), 0);
    const half = lists.length >> 1;
    return WordPostings.union(lists.slice(0, half)).merge(WordPostings.union(lists.slice(half)));
  }

  private merge(other: WordPostings): WordPostings {
    const capacity = this.length + other.length;
    const rowids = new Uint32Array(capacity);
    const frequencies = new Uint32Array(capacity);
    let i = 0;
    let j = 0;
    let length = 0;
    while (i < this.length || j < other.length) {
      const mine = i < this.length ? (this.rowids[i] ?? 0) : Number.POSITIVE_INFINITY;
      const theirs = j < other.length ? (other.rowids[j] ?? 0) : Number.POSITIVE_INFINITY;
      rowids[length] = Math.min(mine, theirs);
      frequencies[length++] = (mine <= theirs ? (this.frequencies[i++] ?? 0) : 0) + (theirs <= mine ? (other.frequencies[j++] ?? 0) : 0);
    }
    return new WordPostings(rowids, frequencies, length);
  }

  get bytes(): number {
    return this.rowids.byteLength + this.frequencies.byteLength + wordOverheadBytes;
  }

  /** Adds a document after every one it holds (a new rowid is above all others). */
  append(rowid: number, frequency: number): void {
    if (this.length === this.rowids.length) {
      const capacity = Math.max(16, this.length * 2);
      this.rowids = grown(this.rowids, capacity);
      this.frequencies = grown(this.frequencies, capacity);
    }
    this.rowids[this.length] = rowid;
    this.frequencies[this.length++] = frequency;
  }
}

function grown(array: Uint32Array, capacity: number): Uint32Array {
  const larger = new Uint32Array(capacity);
  larger.set(array);
  return larger;
}

/** A score per rowid, shared by every scope of one thread (one query at a time), all zero between queries. */
export class ScoreBuffer {
  private scores = new Float64Array(0);

  atLeast(size: number): Float64Array {
    if (this.scores.length < size) this.scores = new Float64Array(Math.max(size, this.scores.length * 2));
    return this.scores;
  }
}

/** What one write transaction did to the documents, read inside it, for the cache to follow after it commits. */
export interface WriteRecord {
  /** New documents, rowids ascending. */
  inserted: { rowid: number; text: string }[];
  /** Token counts of the new documents. */
  insertedLengths: LengthRun | undefined;
  /** Token counts of the documents whose text changed. */
  rewrittenLengths: { rowid: number; length: number }[];
}

/** What a thread's scopes share: the byte budget, the score buffer, the threshold and counters. */
export interface SharedPostings {
  budget: ByteBudgetLru;
  scores: ScoreBuffer;
  /** Rows a scope needs for its queries to be ranked from postings: below, FTS5 is as fast and the memory is not worth it. */
  minDocuments: number;
  stats: PostingsStats;
}

/** Counts since the engine started: what the cache answered and what it had to read. */
export interface PostingsStats {
  rankedFromPostings: number;
  postingsReads: number;
  lengthsReads: number;
}

export interface RankedRow {
  rowid: number;
  score: number;
}

/**
 * FTS5's BM25 ranking of plain-word OR queries, computed from cached postings instead of by FTS5,
 * with the same result to the bit: FTS5 scores every matching row at ~0.75 µs, which for words
 * present in most documents of a large scope costs tens of ms a query. One per open scope.
 *
 * bm25 (fts5_aux.c): for each query word i, in query order, `score += idf[i] * (f * (k1 + 1)) /
 * (f + k1 * (1 - b + b * D / avgdl))`, where f is the word's occurrences in the row, D the row's
 * tokens (`fts_docsize`), avgdl the scope's tokens per row, and `idf[i] = ln((rows - hits + 0.5) /
 * (hits + 0.5))`, floored at 1e-6. The rows and tokens come from FTS5's averages record; `ln` is
 * SQLite's (the same C `log` FTS5 calls, so idf matches to the bit).
 *
 * The cache reflects the scope as of a write count kept in `meta` (every write adds one, in its
 * transaction) and, for writers that would not count, the reading connection's `data_version`:
 * either changing empties it. This process's own inserts of plain text (`plainText`) are followed in place.
 */
export class PostingsRanking {
  private readonly statements;
  /** The write count the cache reflects; -1 when it reflects none (before the first search, or emptied). */
  private writes = -1;
  private dataVersion = -1;
  private rows = 0;
  private tokens = 0;
  private lengths: Uint32Array | null = null;
  /** Rowids below this have their length in `lengths`. */
  private lengthsEnd = 0;
  /** Matches of the queries FTS5 ranked since the lengths were last cached. */
  private matchesWithoutLengths = 0;
  private readonly lengthsKey = {};
  private readonly words = new Map<string, WordPostings>();

  constructor(
    reader: Db,
    writer: Db,
    private readonly shared: SharedPostings,
  ) {
    const lengthsFrom = `SELECT min(id) AS first, max(id) AS last, count(*) AS count, hex(group_concat(sz, '')) AS sizes
      FROM fts_docsize WHERE id >= ?`;
    this.statements = {
      // One statement, so one snapshot: the write count and the averages agree.
      snapshot: reader.prepare(
        "SELECT (SELECT value FROM meta WHERE key = 'writes') AS writes, (SELECT block FROM fts_data WHERE id = 1) AS averages",
      ),
      dataVersion: reader.prepare('PRAGMA data_version').raw(true),
      // One row for all lengths (libsql costs ~1.5 µs a row): concatenated varints, in rowid order.
      lengthsFrom: reader.prepare(lengthsFrom),
      lengthRowsFrom: reader.prepare('SELECT id, sz FROM fts_docsize WHERE id >= ?').raw(true),
      writtenLengthsFrom: writer.prepare(lengthsFrom),
      writtenLength: writer.prepare('SELECT sz FROM fts_docsize WHERE id = ?').raw(true),
      occurrences: reader.prepare('SELECT group_concat(doc) AS docs FROM terms WHERE term = ?').raw(true),
      ln: reader.prepare('SELECT ln(?)').raw(true),
    };
  }

  /**
   * Called at the start of each search, inside the reader's transaction: empties a cache some
   * other write made stale. True when the scope changed since the last search or write of this one.
   */
  begin(): boolean {
    const { writes, averages } = this.statements.snapshot.get() as { writes: number | null; averages: Uint8Array | null };
    const dataVersion = firstColumn<number>(this.statements.dataVersion);
    const changed = (writes ?? 0) !== this.writes || dataVersion !== this.dataVersion;
    if (changed) {
      this.clear();
      this.writes = writes ?? 0;
      this.dataVersion = dataVersion;
    }
    if (averages === null) {
      this.rows = 0;
      this.tokens = 0;
      return changed;
    }
    const rows = readVarint(averages, 0);
    this.rows = rows.value;
    this.tokens = readVarint(averages, rows.next).value;
    return changed;
  }

  /** The scope's tokens, as of the last `begin`. */
  get tokenCount(): number {
    return this.tokens;
  }

  /** Documents holding `word`, from its cached postings (loaded now if the scope is large enough); undefined if not cached here. */
  documentsWith(word: string): number | undefined {
    return this.postings(word)?.length;
  }

  /**
   * The best `limit` rows for the phrases (any of them) and their scores, best first, equal scores
   * in rowid order; undefined when this cache does not rank them (a word not plain, a small scope,
   * or too few matches yet to read every length when none are cached). A phrase is one word, or the
   * words a prefix begins (FTS5's `"prefix"*`, which it scores as one phrase: a document's
   * occurrences of all of them, the documents holding any).
   */
  rank(phrases: readonly (readonly string[])[], limit: number): RankedRow[] | undefined {
    const lists: WordPostings[] = [];
    let documents = 0;
    for (const words of phrases) {
      const postings: WordPostings[] = [];
      for (const word of words) {
        const list = this.postings(word);
        if (!list) return undefined;
        postings.push(list);
      }
      const list = WordPostings.union(postings);
      lists.push(list);
      documents += list.length;
    }
    if (limit < 1) return undefined;
    if (!this.lengths) {
      this.matchesWithoutLengths += documents;
      if (this.matchesWithoutLengths < this.rows * coldLengthsFraction) return undefined;
    }
    const lengths = this.documentLengths();
    if (lists.some((list) => (list.rowids[list.length - 1] ?? -1) >= this.lengthsEnd)) return undefined;
    const scores = this.shared.scores.atLeast(this.lengthsEnd);
    const avgdl = this.tokens / this.rows;
    for (const list of lists) {
      if (list.length === 0) continue;
      const idf = this.idf(list.length);
      const { rowids, frequencies } = list;
      for (let i = 0; i < list.length; i++) {
        const rowid = rowids[i] ?? 0;
        const f = frequencies[i] ?? 0;
        // Written as fts5_aux.c writes it: the same operations in the same order give the same double.
        scores[rowid] = (scores[rowid] ?? 0) + idf * ((f * (k1 + 1.0)) / (f + k1 * (1 - b + (b * (lengths[rowid] ?? 0)) / avgdl)));
      }
    }
    this.shared.stats.rankedFromPostings++;
    return takeBest(lists, scores, limit);
  }

  /**
   * Reads, inside a write transaction, what the cache needs to follow it; undefined when it cannot
   * (it reflects another write count than the one before this write: another connection wrote).
   */
  recordWrite(writesBefore: number, inserted: { rowid: number; text: string }[], rewritten: number[]): WriteRecord | undefined {
    if (this.writes !== writesBefore || (this.lengths === null && this.words.size === 0)) return undefined;
    const [firstInserted] = inserted;
    return {
      inserted,
      insertedLengths: firstInserted ? this.readLengths(this.statements.writtenLengthsFrom, firstInserted.rowid) : undefined,
      rewrittenLengths: rewritten.map((rowid) => ({
        rowid,
        length: readVarint(firstColumn<Uint8Array>(this.statements.writtenLength, [rowid]), 0).value,
      })),
    };
  }

  /** After the write transaction committed: follows it, or forgets everything when it cannot. */
  followWrite(record: WriteRecord | undefined): void {
    if (!record) {
      this.clear();
      return;
    }
    this.writes++;
    this.dataVersion = firstColumn<number>(this.statements.dataVersion);
    if (this.lengths) {
      if (record.insertedLengths) this.setLengths(record.insertedLengths);
      for (const { rowid, length } of record.rewrittenLengths) this.setLengths({ first: rowid, values: Uint32Array.of(length) });
      if (!this.shared.budget.keep(this.lengthsKey, this.lengths.byteLength, () => this.forgetLengths())) this.forgetLengths();
    }
    if (this.words.size === 0) return;
    if (record.rewrittenLengths.length > 0 || record.inserted.some(({ text }) => !plainText.test(text))) {
      this.forgetWords();
      return;
    }
    const grownWords = new Map<string, WordPostings>();
    const counts = new Map<WordPostings, number>();
    for (const { rowid, text } of record.inserted) {
      for (const token of text.toLowerCase().match(asciiTokens) ?? []) {
        const postings = this.words.get(token);
        if (!postings) continue;
        counts.set(postings, (counts.get(postings) ?? 0) + 1);
        grownWords.set(token, postings);
      }
      for (const [postings, count] of counts) postings.append(rowid, count);
      counts.clear();
    }
    for (const [word, postings] of grownWords) this.keepWord(word, postings);
  }

  clear(): void {
    this.writes = -1;
    this.forgetLengths();
    this.forgetWords();
  }

  private postings(word: string): WordPostings | undefined {
    if (this.rows < this.shared.minDocuments || !plainWord.test(word)) return undefined;
    let postings = this.words.get(word);
    if (postings) {
      this.shared.budget.touch(postings);
      return postings;
    }
    this.shared.stats.postingsReads++;
    postings = WordPostings.fromOccurrences(firstColumn<string | null>(this.statements.occurrences, [word]));
    this.words.set(word, postings);
    // One too large for the whole budget is used for this query only.
    this.keepWord(word, postings);
    return postings;
  }

  private keepWord(word: string, postings: WordPostings): void {
    if (!this.shared.budget.keep(postings, postings.bytes, () => this.forgetWord(word, postings))) this.forgetWord(word, postings);
  }

  private documentLengths(): Uint32Array {
    if (this.lengths) {
      this.shared.budget.touch(this.lengthsKey);
      return this.lengths;
    }
    this.shared.stats.lengthsReads++;
    const run = this.readLengths(this.statements.lengthsFrom, 1);
    this.matchesWithoutLengths = 0;
    this.lengths = new Uint32Array(run.first + run.values.length);
    this.lengths.set(run.values, run.first);
    this.lengthsEnd = this.lengths.length;
    if (!this.shared.budget.keep(this.lengthsKey, this.lengths.byteLength, () => this.forgetLengths())) {
      const lengths = this.lengths;
      this.lengths = null;
      return lengths;
    }
    return this.lengths;
  }

  /** The lengths of rowids from `from` on: from one concatenation when they are consecutive (they are, unless rows were deleted), else row by row. */
  private readLengths(statement: Statement, from: number): LengthRun {
    const { first, last, count, sizes } = statement.get(from) as { first: number | null; last: number; count: number; sizes: string };
    if (first === null) return { first: from, values: new Uint32Array(0) };
    const values = new Uint32Array(last - first + 1);
    if (count === values.length) decodeHexVarints(sizes, values);
    else
      for (const [rowid, sz] of this.statements.lengthRowsFrom.all(from) as [number, Uint8Array][])
        values[rowid - first] = readVarint(sz, 0).value;
    return { first, values };
  }

  private setLengths({ first, values }: LengthRun): void {
    let lengths = this.lengths;
    if (!lengths) return;
    const end = first + values.length;
    // Doubling: our inserts come a batch at a time.
    if (end > lengths.length) lengths = this.lengths = grown(lengths, Math.max(end, lengths.length * 2));
    lengths.set(values, first);
    this.lengthsEnd = Math.max(this.lengthsEnd, end);
  }

  private idf(hits: number): number {
    const idf = firstColumn<number | null>(this.statements.ln, [(this.rows - hits + 0.5) / (hits + 0.5)]);
    return idf === null || idf <= 0 ? idfFloor : idf;
  }

  private forgetLengths(): void {
    this.shared.budget.forget(this.lengthsKey);
    this.lengths = null;
    this.lengthsEnd = 0;
  }

  private forgetWord(word: string, postings: WordPostings): void {
    if (this.words.get(word) === postings) this.words.delete(word);
  }

  private forgetWords(): void {
    for (const postings of this.words.values()) this.shared.budget.forget(postings);
    this.words.clear();
  }
}

/** The `limit` best rows by score, then rowid; zeroes every score it visits, so the buffer is clean for the next query. */
function takeBest(lists: WordPostings[], scores: Float64Array, limit: number): RankedRow[] {
  const best: RankedRow[] = [];
  for (const { rowids, length } of lists) {
    for (let i = 0; i < length; i++) {
      const rowid = rowids[i] ?? 0;
      const score = scores[rowid] ?? 0;
      if (score === 0) continue;
      scores[rowid] = 0;
      if (best.length === limit) {
        if (!ranksBelow(best[limit - 1], score, rowid)) continue;
        best.pop();
      }
      let at = best.length;
      while (at > 0 && ranksBelow(best[at - 1], score, rowid)) at--;
      best.splice(at, 0, { rowid, score });
    }
  }
  return best;
}

/** Whether `row` comes after the row `rowid` scored `score`: a lower score, or the same and a larger rowid. */
function ranksBelow(row: RankedRow | undefined, score: number, rowid: number): boolean {
  return row !== undefined && (row.score < score || (row.score === score && row.rowid > rowid));
}
