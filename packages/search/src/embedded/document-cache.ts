import type { StoredFields } from '../port';
import type { ByteBudgetLru } from './byte-budget-lru';

/** A document as a page shows it: its stored fields parsed once, and frozen, being handed to every page that ranks it. */
export interface CachedDocument {
  readonly id: string;
  readonly text: string;
  readonly stored: Readonly<StoredFields>;
}

/** A document row as SQLite returns it. */
export interface DocumentRow {
  rowid: number;
  id: string;
  text: string;
  stored: string;
}

/** What a cached document costs besides its text, for the byte budget: its objects, id, stored fields and entries. */
const documentOverheadBytes = 300;

/**
 * The documents of one scope that its pages showed, by rowid, under a byte budget its thread's
 * scopes share (ADR 0122): reading a page's documents from SQLite costs about half of a search of
 * 10k chunks, however few they are. A rowid keeps its document until its writer updates it, which
 * `forget` follows; a write by any other connection empties the cache (`clear`), as it empties the
 * postings.
 */
export class DocumentCache {
  private readonly documents = new Map<number, CachedDocument>();

  constructor(private readonly budget: ByteBudgetLru) {}

  /** The documents of `rowids` that exist, those not cached read with `read` (and kept). */
  get(rowids: readonly number[], read: (missing: number[]) => DocumentRow[]): Map<number, CachedDocument> {
    const found = new Map<number, CachedDocument>();
    const missing: number[] = [];
    for (const rowid of rowids) {
      const document = this.documents.get(rowid);
      if (!document) missing.push(rowid);
      else {
        this.budget.touch(document);
        found.set(rowid, document);
      }
    }
    if (missing.length === 0) return found;
    for (const { rowid, id, text, stored } of read(missing)) {
      const document: CachedDocument = Object.freeze({ id, text, stored: Object.freeze(JSON.parse(stored) as StoredFields) });
      found.set(rowid, document);
      this.documents.set(rowid, document);
      // Two bytes a character: what a string outside Latin-1 takes.
      if (!this.budget.keep(document, 2 * text.length + documentOverheadBytes, () => this.evicted(rowid, document)))
        this.documents.delete(rowid);
    }
    return found;
  }

  /** Drops the document of `rowid`, which this scope's writer is changing. */
  forget(rowid: number): void {
    const document = this.documents.get(rowid);
    if (!document) return;
    this.budget.forget(document);
    this.documents.delete(rowid);
  }

  clear(): void {
    for (const document of this.documents.values()) this.budget.forget(document);
    this.documents.clear();
  }

  private evicted(rowid: number, document: CachedDocument): void {
    if (this.documents.get(rowid) === document) this.documents.delete(rowid);
  }
}
