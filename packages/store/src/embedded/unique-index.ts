import { Query } from 'mingo';
import { DuplicateKeyError } from '../errors';
import type { IndexSpec, StoreDocument } from '../port';

/** MongoDB's generated index name: `a_1_b_-1`. */
export function indexName(spec: IndexSpec): string {
  return (
    spec.name ??
    Object.entries(spec.key)
      .map(([field, direction]) => `${field}_${direction}`)
      .join('_')
  );
}

/**
 * A unique index: a Map from the encoded indexed values to the owning `_id`, so a clash is one
 * lookup. As in MongoDB a missing field counts as null (two documents without it clash) unless a
 * partialFilterExpression leaves them out. Deviation: an array value is keyed as a whole, where
 * MongoDB would index each element (multikey).
 */
export class UniqueIndex {
  readonly name: string;
  readonly #paths: string[][];
  readonly #partial: Query<StoreDocument> | undefined;
  readonly #owners = new Map<string, string>();

  constructor(
    readonly spec: IndexSpec,
    readonly collection: string,
  ) {
    this.name = indexName(spec);
    this.#paths = Object.keys(spec.key).map((path) => path.split('.'));
    this.#partial = spec.partialFilterExpression ? new Query<StoreDocument>(spec.partialFilterExpression) : undefined;
  }

  /** The key `doc` has in this index, or undefined when the partial filter leaves it out. */
  keyOf(doc: StoreDocument): string | undefined {
    if (this.#partial && !this.#partial.test(doc)) return undefined;
    let key = '';
    for (const path of this.#paths) key += encode(valueAt(doc, path));
    return key;
  }

  /** Throws when another document owns `key`. */
  check(key: string | undefined, doc: StoreDocument): void {
    if (key === undefined) return;
    const owner = this.#owners.get(key);
    if (owner !== undefined && owner !== doc._id) {
      const values = Object.keys(this.spec.key).map((path, i) => `${path}: ${JSON.stringify(valueAt(doc, this.#paths[i]) ?? null)}`);
      throw new DuplicateKeyError(
        `E11000 duplicate key error collection: ${this.collection} index: ${this.name} dup key: { ${values.join(', ')} }`,
        { ...this.spec.key },
      );
    }
  }

  add(key: string | undefined, id: string): void {
    if (key !== undefined) this.#owners.set(key, id);
  }

  remove(doc: StoreDocument): void {
    const key = this.keyOf(doc);
    if (key !== undefined && this.#owners.get(key) === doc._id) this.#owners.delete(key);
  }

  /** Indexes existing documents; throws DuplicateKeyError (and stays unusable) on a clash. */
  build(docs: Iterable<StoreDocument>): void {
    for (const doc of docs) {
      const key = this.keyOf(doc);
      this.check(key, doc);
      this.add(key, doc._id);
    }
  }
}

/** Follows a dotted path through nested objects; arrays and scalars on the way mean missing. */
function valueAt(doc: unknown, path: string[]): unknown {
  let value = doc;
  for (const segment of path) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

/**
 * Type-tagged, self-delimiting encoding, so compound keys concatenate without ambiguity and
 * 1 and "1" differ (as in MongoDB) while null and missing coincide.
 */
function encode(value: unknown): string {
  if (value === undefined || value === null) return 'z';
  switch (typeof value) {
    case 'string':
      return `s${value.length}:${value}`;
    case 'number':
      return `n${value};`;
    case 'boolean':
      return value ? 't' : 'f';
    default: {
      const json = JSON.stringify(value);
      return `j${json.length}:${json}`;
    }
  }
}
