import { createHash } from 'node:crypto';
import type { IndexSpec } from '../port';

/** Field names that can go into a JSON path literal as they are. */
const SEGMENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

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
 * Whether the value at `path` is one SQL orders and compares exactly as MongoDB does: missing, null,
 * a number or a string, with no array on the way (MongoDB would look into each element). Booleans,
 * objects and arrays come out of json_extract as numbers or JSON text, so a path that ever holds one
 * is served by mingo from then on (as MongoDB marks an index multikey).
 */
export function isScalarAt(doc: unknown, path: string): boolean {
  let value = doc;
  for (const segment of path.split('.')) {
    if (Array.isArray(value)) return false;
    if (typeof value !== 'object' || value === null) return true;
    value = (value as Record<string, unknown>)[segment];
  }
  return value === undefined || value === null || typeof value === 'string' || typeof value === 'number';
}

/** SQL that is true for a document whose value at `path` is not scalar in the sense of isScalarAt. */
export function notScalarSql(path: string): string {
  const segments = path.split('.');
  const tests = segments.map((_, i) => `json_type(doc, '$.${segments.slice(0, i + 1).join('.')}') = 'array'`);
  tests.push(`json_type(doc, '$.${path}') IN ('object', 'true', 'false')`);
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
