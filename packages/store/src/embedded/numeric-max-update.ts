import type { PreparedUpdate } from './apply-update';
import { SEGMENT } from './sql-paths';

/** An update SQLite applies to the stored text itself, without the rows being read into JavaScript. */
export interface UpdateInSql {
  /** The field it writes. */
  field: string;
  /** The new `doc`, as an SQL expression, and its parameters. */
  set: string;
  setParams: unknown[];
  /** True for the rows the update changes: the others stay as they are and are not counted as modified. */
  changes: string;
  changesParams: unknown[];
}

/**
 * `$max` of one finite number on one top-level field, as SQL. MongoDB orders a missing field and
 * null below every number, and text, objects, arrays and booleans above them, so the field is
 * written when it is missing, null, or a smaller number. Marking many documents with a version is
 * the indexer's hot path (ADR 0003): this spares it parsing, copying and re-serialising each
 * document. Undefined for any other update.
 */
export function numericMaxInSql(update: PreparedUpdate): UpdateInSql | undefined {
  const { $max, ...others } = update.operators;
  if (!$max || Object.keys(others).length > 0) return undefined;
  const fields = Object.entries($max);
  if (fields.length !== 1 || !fields[0]) return undefined;
  const [field, value] = fields[0];
  if (field === '_id' || !SEGMENT.test(field) || typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  const type = `json_type(doc, '$.${field}')`;
  return {
    field,
    // json(?) writes the number as JSON.stringify spells it, as every other write does.
    set: `json_set(doc, '$.${field}', json(?))`,
    setParams: [JSON.stringify(value)],
    changes: `(${type} IS NULL OR ${type} = 'null' OR (${type} IN ('integer', 'real') AND json_extract(doc, '$.${field}') < ?))`,
    changesParams: [value],
  };
}
