import { createHash } from 'node:crypto';
import type { IndexSpec } from '../port';

/** Field names that can go into a JSON path literal as they are. */
export const SEGMENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

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
 * The SQL expression reading a document path: the `id` column for `_id`, `json_extract` for the
 * rest. Undefined for a path SQL cannot name safely (digits, punctuation): it stays in mingo.
 */
export function pathExpression(path: string): string | undefined {
  if (path === '_id') return 'id';
  return path.split('.').every((segment) => SEGMENT.test(segment)) ? `json_extract(doc, '$.${path}')` : undefined;
}

/**
 * How SQL may read the value at `path`. `scalar`: missing, null, a number or a string, with no array
 * on the way (MongoDB would look into each element), which SQL orders and compares exactly as MongoDB
 * does. `boolean`: true or false, which json_extract reads as 1 or 0, so SQL can only tell it apart
 * with json_type (equality, see planFilter). `complex`: an object, or an array here or on the way.
 * A path that ever holds a boolean or a complex value is served so from then on (as MongoDB marks
 * an index multikey).
 */
export type ValueKind = 'scalar' | 'boolean' | 'complex';

export function valueKindAt(doc: unknown, path: string): ValueKind {
  let value = doc;
  for (const segment of path.split('.')) {
    if (Array.isArray(value)) return 'complex';
    if (typeof value !== 'object' || value === null) return 'scalar';
    value = (value as Record<string, unknown>)[segment];
  }
  if (typeof value === 'boolean') return 'boolean';
  return value === undefined || value === null || typeof value === 'string' || typeof value === 'number' ? 'scalar' : 'complex';
}

/** SQL that is true for a document whose value at `path` is of `kind` (boolean or complex) in the sense of valueKindAt. */
export function valueKindSql(path: string, kind: Exclude<ValueKind, 'scalar'>): string {
  if (kind === 'boolean') return `json_type(doc, '$.${path}') IN ('true', 'false')`;
  const segments = path.split('.');
  const tests = segments.map((_, i) => `json_type(doc, '$.${segments.slice(0, i + 1).join('.')}') = 'array'`);
  tests.push(`json_type(doc, '$.${path}') = 'object'`);
  return tests.join(' OR ');
}

export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Index names are free text in MongoDB; the SQL index gets a stable name of its own. */
export function sqlIndexName(collection: string, index: string, suffix: string): string {
  return `ix_${createHash('sha256').update(`${collection}\0${index}`).digest('hex').slice(0, 20)}_${suffix}`;
}

/** A literal for SQL that cannot take parameters (partial index conditions). */
export function sqlLiteral(value: string | number): string {
  return typeof value === 'number' ? String(value) : `'${value.replaceAll("'", "''")}'`;
}
