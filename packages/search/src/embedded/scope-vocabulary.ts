import type Database from 'libsql';
import type { ByteBudgetLru } from './byte-budget-lru';
import { byCodePoint, type SortedVocabulary } from './typo-variants';

type Db = InstanceType<typeof Database>;

/** Vocabulary answers one scope remembers between writes. */
const maxRememberedAnswers = 10_000;
/** Reads since the scope last changed, per token of it, that cost as much as reading every term (ADR 0112). */
const readsPerToken = 0.075 / 25;
/** Beyond this many tokens (~300 ms to read the vocabulary) the terms are never read whole. */
const maxTokensToRead = 4_000_000;
/** What a term costs in memory besides its characters (its string header and array slot). */
const termOverheadBytes = 32;

/**
 * One scope's vocabulary as the typo search and the prefix expansion ask it. fts5vocab answers each
 * read by iterating every segment of the index, so answers are remembered until the scope changes;
 * once those reads have cost what reading every term costs, the terms are read into a sorted array
 * (under the postings' byte budget) and searched there (ADR 0112).
 */
export class ScopeVocabulary implements SortedVocabulary {
  private readonly statements;
  private readonly answers = new Map<string, unknown>();
  private terms: string[] | null = null;
  private reads = 0;
  private readonly termsKey = {};

  constructor(
    reader: Db,
    private readonly budget: ByteBudgetLru,
    /** The scope's tokens, as of the current search (FTS5's averages record). */
    private readonly tokens: () => number,
  ) {
    this.statements = {
      firstFrom: reader.prepare('SELECT term FROM terms WHERE term >= ? LIMIT 1').raw(true),
      has: reader.prepare('SELECT 1 FROM terms WHERE term = ? LIMIT 1').raw(true),
      documentsWith: reader.prepare('SELECT doc FROM vocab WHERE term = ?').raw(true),
      // Terms hold no spaces (unicode61 separates on them): one row, one string, split here.
      all: reader.prepare("SELECT group_concat(term, ' ') FROM vocab").raw(true),
    };
  }

  firstFrom(from: string): string | undefined {
    const terms = this.loadedTerms();
    if (terms) return terms[firstAtOrAfter(terms, from)];
    return this.remembered(`f${from}`, () => (this.statements.firstFrom.get(from) as [string] | undefined)?.[0]);
  }

  has(term: string): boolean {
    const terms = this.loadedTerms();
    if (terms) return terms[firstAtOrAfter(terms, term)] === term;
    return this.remembered(`h${term}`, () => this.statements.has.get(term) !== undefined);
  }

  /** Documents holding `word` (fts5vocab counts them by walking its postings). */
  documentsWith(word: string): number {
    return this.remembered(`c${word}`, () => (this.statements.documentsWith.get(word) as [number] | undefined)?.[0] ?? 0);
  }

  /** Forgets every answer and the terms: the scope changed. */
  clear(): void {
    this.answers.clear();
    this.forgetTerms();
    this.reads = 0;
  }

  private remembered<T>(key: string, read: () => T): T {
    if (this.answers.has(key)) return this.answers.get(key) as T;
    this.reads++;
    const value = read();
    if (this.answers.size >= maxRememberedAnswers) this.answers.clear();
    this.answers.set(key, value);
    return value;
  }

  /** The sorted terms, read now if the reads since the last change paid for it; null while seeks are cheaper. */
  private loadedTerms(): string[] | null {
    if (this.terms) {
      this.budget.touch(this.termsKey);
      return this.terms;
    }
    const tokens = this.tokens();
    if (tokens > maxTokensToRead || this.reads < tokens * readsPerToken) return null;
    const [all] = this.statements.all.get() as [string | null];
    const terms = all === null || all === '' ? [] : all.split(' ');
    // fts5vocab lists terms in the index's order, SQLite's BINARY (code point) order; sorted only if not.
    if (terms.some((term, i) => i > 0 && byCodePoint(terms[i - 1] ?? '', term) >= 0)) terms.sort(byCodePoint);
    const bytes = terms.reduce((sum, term) => sum + 2 * term.length + termOverheadBytes, 0);
    // Too large for the budget: not read again until the scope changes.
    this.reads = Number.NEGATIVE_INFINITY;
    if (!this.budget.keep(this.termsKey, bytes, () => this.forgetTerms(false))) return null;
    this.reads = 0;
    this.terms = terms;
    return terms;
  }

  private forgetTerms(fromBudget = true): void {
    if (fromBudget) this.budget.forget(this.termsKey);
    this.terms = null;
  }
}

/** The index of the first term at or after `from` in code point order (`terms.length` past the last). */
function firstAtOrAfter(terms: readonly string[], from: string): number {
  let low = 0;
  let high = terms.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (byCodePoint(terms[middle] ?? '', from) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}
