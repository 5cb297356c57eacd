import { DuplicateKeyError } from '../errors';
import type { IndexSpec, StoreDocument } from '../port';
import { toStored } from './json-value';
import type { SqliteEngine } from './sqlite-engine';
import { indexName, pathExpression, quoteIdentifier, sqlIndexName, sqlLiteral, valueKindAt, valueKindSql } from './sql-paths';

interface StoredIndex {
  spec: IndexSpec & { name: string };
  /** SQL name of the unique index, for turning a constraint failure back into this index. */
  uniqueSqlName?: string;
}

/**
 * What the store knows about one collection's table: its declared indexes and which indexed paths
 * have held values SQL cannot compare as MongoDB does (see valueKindAt). Kept in small tables
 * (`_indexes`, `_complex_paths`, `_boolean_paths`) and read once per collection, so opening a store
 * costs the same at any size.
 */
export class CollectionSchema {
  readonly name: string;
  readonly table: string;
  readonly #engine: SqliteEngine;
  #generation = -1;
  readonly #indexes = new Map<string, StoredIndex>();
  /** Paths of declared indexes other than `_id`: the only ones whose values are watched. */
  readonly #tracked = new Set<string>();
  readonly #complex = new Set<string>();
  readonly #boolean = new Set<string>();
  /** Paths some partial index requires to exist (`{path: {$exists: true}}`). */
  readonly #requiredToExist = new Set<string>();

  constructor(engine: SqliteEngine, name: string) {
    this.#engine = engine;
    this.name = name;
    this.table = quoteIdentifier(`c_${name}`);
  }

  /** Creates the table on first use and (re)reads the schema facts; cheap when nothing changed. */
  ensure(): void {
    if (this.#generation === this.#engine.generation) return;
    this.#engine.exec(`CREATE TABLE IF NOT EXISTS ${this.table} (id TEXT PRIMARY KEY NOT NULL, doc TEXT NOT NULL)`);
    this.#indexes.clear();
    this.#tracked.clear();
    this.#complex.clear();
    this.#boolean.clear();
    this.#requiredToExist.clear();
    const listed = (sql: string) => this.#engine.values(sql, [this.name]) as string[];
    for (const spec of listed('SELECT spec FROM _indexes WHERE collection = ?')) this.#remember(JSON.parse(spec) as StoredIndex['spec']);
    for (const path of listed('SELECT path FROM _complex_paths WHERE collection = ?')) this.#complex.add(path);
    for (const path of listed('SELECT path FROM _boolean_paths WHERE collection = ?')) this.#boolean.add(path);
    this.#generation = this.#engine.generation;
  }

  /** The SQL expression of `path` when SQL compares its values exactly as MongoDB does. */
  readonly pushable = (path: string): string | undefined => {
    if (path === '_id') return 'id';
    return this.#tracked.has(path) && !this.#complex.has(path) && !this.#boolean.has(path) ? pathExpression(path) : undefined;
  };

  /**
   * The SQL expression of `path` for an equality to true or false: any indexed path that has held
   * only scalars and booleans (planFilter adds the json_type test that tells true from 1).
   */
  readonly booleanPushable = (path: string): string | undefined =>
    path !== '_id' && this.#tracked.has(path) && !this.#complex.has(path) ? pathExpression(path) : undefined;

  /** The condition of a partial index on `path`'s existence, which a comparison on `path` implies. */
  readonly existence = (path: string): string | undefined => (this.#requiredToExist.has(path) ? existsSql(path) : undefined);

  /** Before a document is written: notes indexed paths where it holds an array, object or boolean. */
  noteValues(doc: StoreDocument): void {
    for (const path of this.#tracked) {
      if (this.#complex.has(path)) continue;
      const kind = valueKindAt(doc, path);
      if (kind === 'complex' || (kind === 'boolean' && !this.#boolean.has(path))) this.#mark(kind, path);
    }
  }

  /** Whether writing `path` may clash in a unique index: it is one of its keys or part of its partial condition. */
  inUniqueIndex(path: string): boolean {
    for (const { spec } of this.#indexes.values()) {
      if (spec.unique && (path in spec.key || partialTerms(spec.partialFilterExpression).some(([each]) => each === path))) return true;
    }
    return false;
  }

  /** DuplicateKeyError for a constraint failure of this collection, or undefined for any other error. */
  duplicateKeyError(error: unknown, doc: StoreDocument): DuplicateKeyError | undefined {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
      return new DuplicateKeyError(
        `E11000 duplicate key error collection: ${this.name} index: _id_ dup key: { _id: ${JSON.stringify(doc._id)} }`,
        { _id: 1 },
      );
    }
    if (code !== 'SQLITE_CONSTRAINT_UNIQUE') return undefined;
    const message = String((error as Error).message);
    const index = Array.from(this.#indexes.values()).find((each) => each.uniqueSqlName && message.includes(each.uniqueSqlName));
    if (!index) return new DuplicateKeyError(`E11000 duplicate key error collection: ${this.name}`);
    const values = Object.keys(index.spec.key).map((path) => `${path}: ${JSON.stringify(valueAt(doc, path) ?? null)}`);
    return new DuplicateKeyError(
      `E11000 duplicate key error collection: ${this.name} index: ${index.spec.name} dup key: { ${values.join(', ')} }`,
      { ...index.spec.key },
    );
  }

  /**
   * Declares an index: SQLite expression indexes over json_extract serve equality, ranges and sorts;
   * a unique one gets a second index keyed by each value's JSON text, so 1 and "1" differ and a
   * missing field counts as null, as in MongoDB. Idempotent; the same name with other options throws.
   */
  createIndex(requested: IndexSpec): void {
    this.ensure();
    const spec = toStored({
      name: indexName(requested),
      key: requested.key,
      ...(requested.unique ? { unique: true } : {}),
      ...(requested.partialFilterExpression ? { partialFilterExpression: requested.partialFilterExpression } : {}),
    }) as StoredIndex['spec'];
    const existing = this.#indexes.get(spec.name);
    if (existing) {
      if (JSON.stringify(existing.spec) === JSON.stringify(spec)) return;
      throw new Error(`index ${spec.name} already exists on ${this.name} with different options`);
    }
    const paths = Object.keys(spec.key);
    for (const path of paths) {
      if (!pathExpression(path)) throw new TypeError(`the embedded store cannot index the path ${JSON.stringify(path)}`);
    }
    const where = spec.partialFilterExpression ? ` WHERE ${partialSql(spec.partialFilterExpression)}` : '';
    const direction = (value: number | undefined) => (value === -1 ? ' DESC' : '');
    const columns = paths.map((path) => `${pathExpression(path)}${direction(spec.key[path])}`);
    // `_id` last (in the last key's direction), so a sort that breaks ties by `_id` is read from the index too.
    const lastPath = paths.at(-1);
    if (!paths.includes('_id')) columns.push(`id${direction(lastPath === undefined ? undefined : spec.key[lastPath])}`);
    this.#engine.exec('SAVEPOINT create_index');
    try {
      if (spec.unique) {
        const keys = paths.map((path) => (path === '_id' ? 'id' : `ifnull(doc -> '$.${path}', 'null')`)).join(', ');
        this.#engine.exec(
          `CREATE UNIQUE INDEX ${quoteIdentifier(sqlIndexName(this.name, spec.name, 'u'))} ON ${this.table} (${keys})${where}`,
        );
      }
      this.#engine.exec(
        `CREATE INDEX ${quoteIdentifier(sqlIndexName(this.name, spec.name, 'q'))} ON ${this.table} (${columns.join(', ')})${where}`,
      );
      for (const path of paths) {
        if (path === '_id' || this.#tracked.has(path)) continue;
        // A new path: its values so far decide how SQL may compare them (a scan or two, once).
        const kind = (['complex', 'boolean'] as const).find(
          (each) => this.#engine.first(`SELECT 1 FROM ${this.table} WHERE ${valueKindSql(path, each)} LIMIT 1`) !== undefined,
        );
        if (kind) this.#mark(kind, path);
      }
      this.#engine.run('INSERT INTO _indexes (collection, name, spec) VALUES (?, ?, ?)', [this.name, spec.name, JSON.stringify(spec)]);
      this.#engine.exec('RELEASE create_index');
    } catch (error) {
      this.#engine.exec('ROLLBACK TO create_index');
      this.#engine.exec('RELEASE create_index');
      if ((error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
        throw new DuplicateKeyError(`E11000 duplicate key error collection: ${this.name} index: ${spec.name}`, { ...spec.key });
      }
      throw error;
    }
    this.#remember(spec);
  }

  #remember(spec: StoredIndex['spec']): void {
    this.#indexes.set(spec.name, { spec, ...(spec.unique ? { uniqueSqlName: sqlIndexName(this.name, spec.name, 'u') } : {}) });
    for (const path of Object.keys(spec.key)) if (path !== '_id') this.#tracked.add(path);
    for (const [path, condition] of partialTerms(spec.partialFilterExpression))
      if (isExistsTrue(condition)) this.#requiredToExist.add(path);
  }

  #mark(kind: 'complex' | 'boolean', path: string): void {
    this.#engine.run(`INSERT OR IGNORE INTO _${kind}_paths (collection, path) VALUES (?, ?)`, [this.name, path]);
    (kind === 'complex' ? this.#complex : this.#boolean).add(path);
  }
}

/** A partial index's condition in SQL: `$exists: true` and equality to a string or number, joined by AND. */
function partialSql(filter: Record<string, unknown>): string {
  const terms: string[] = [];
  for (const [path, condition] of Object.entries(filter)) {
    if (path === '$and' && Array.isArray(condition)) {
      terms.push(...condition.map((clause) => `(${partialSql(clause as Record<string, unknown>)})`));
      continue;
    }
    const expression = pathExpression(path);
    if (expression && expression !== 'id') {
      if (isExistsTrue(condition)) {
        terms.push(existsSql(path));
        continue;
      }
      if (typeof condition === 'string' || typeof condition === 'number') {
        terms.push(`${expression} = ${sqlLiteral(condition)}`);
        continue;
      }
    }
    throw new TypeError(`the embedded store supports partial indexes on {path: {$exists: true}} and equality only, got ${path}`);
  }
  return terms.join(' AND ');
}

/** Written the same way in the index and in queries: SQLite matches a partial index's condition by its text. */
function existsSql(path: string): string {
  return `json_type(doc, '$.${path}') IS NOT NULL`;
}

/** A partial index's conditions as [path, condition] pairs, those inside `$and` included. */
function partialTerms(filter: Record<string, unknown> | undefined): Array<[string, unknown]> {
  if (!filter) return [];
  return Object.entries(filter).flatMap(
    ([path, condition]): Array<[string, unknown]> =>
      path === '$and' && Array.isArray(condition)
        ? condition.flatMap((clause) => partialTerms(clause as Record<string, unknown>))
        : [[path, condition]],
  );
}

function isExistsTrue(condition: unknown): boolean {
  return (
    typeof condition === 'object' &&
    condition !== null &&
    Object.keys(condition).length === 1 &&
    (condition as { $exists?: unknown }).$exists === true
  );
}

function valueAt(doc: unknown, path: string): unknown {
  let value = doc;
  for (const segment of path.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}
