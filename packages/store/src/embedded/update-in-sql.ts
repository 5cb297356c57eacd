import type { PreparedUpdate } from './apply-update';
import { SEGMENT } from './sql-paths';

/** An update SQLite applies to the stored text itself, without the rows being read into JavaScript. */
export interface UpdateInSql {
  /** The fields it writes. */
  fields: string[];
  /** The new `doc`, as an SQL expression, and its parameters. */
  set: string;
  setParams: unknown[];
  /** True for the rows the update changes: the others stay as they are and are not counted as modified. */
  changes: string;
  changesParams: unknown[];
}

/**
 * The update as SQL when it is one SQLite can apply to the stored text exactly as the JavaScript path
 * would: `$max` of a finite number on one top-level field, or `$set` of top-level fields to strings,
 * finite numbers or null. Anything else (other operators, nested paths, booleans, objects, arrays,
 * text SQLite would not store as JavaScript spells it) is undefined and goes through JavaScript.
 */
export function updateInSql(update: PreparedUpdate): UpdateInSql | undefined {
  const { $max, $set, ...others } = update.operators;
  if (Object.keys(others).length > 0 || ($max && $set)) return undefined;
  if ($max) return numericMaxInSql($max);
  if ($set) return scalarSetInSql($set);
  return undefined;
}

/** A UTF-16 surrogate: a string holding one (even in a valid pair) stays in JavaScript. */
const SURROGATE = /[\uD800-\uDFFF]/;

const plainField = (field: string) => field !== '_id' && SEGMENT.test(field);

/**
 * `$max` of one finite number on one top-level field. MongoDB orders a missing field and null below
 * every number, and text, objects, arrays and booleans above them, so the field is written when it is
 * missing, null, or a smaller number. Marking many documents with a version is the indexer's hot path
 * (ADR 0003): this spares it parsing, copying and re-serialising each document.
 */
function numericMaxInSql($max: Record<string, unknown>): UpdateInSql | undefined {
  const fields = Object.entries($max);
  if (fields.length !== 1 || !fields[0]) return undefined;
  const [field, value] = fields[0];
  if (!plainField(field) || typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  const type = `json_type(doc, '$.${field}')`;
  return {
    fields: [field],
    // json(?) writes the number as JSON.stringify spells it, as every other write does.
    set: `json_set(doc, '$.${field}', json(?))`,
    setParams: [JSON.stringify(value)],
    changes: `(${type} IS NULL OR ${type} = 'null' OR (${type} IN ('integer', 'real') AND json_extract(doc, '$.${field}') < ?))`,
    changesParams: [value],
  };
}

/**
 * `$set` of top-level fields to scalars (ADR 0119): closing many reservations at once is billing's hot
 * path. A string goes in as SQL text, which json_set escapes as JSON.stringify does (a string with a
 * surrogate, whose lone half SQLite would replace, stays in JavaScript); a number as JSON.stringify spells
 * it. A row changes when a field is missing or holds another kind or value, as MongoDB counts it.
 */
function scalarSetInSql($set: Record<string, unknown>): UpdateInSql | undefined {
  const fields = Object.entries($set);
  if (fields.length === 0) return undefined;
  const paths: string[] = [];
  const setParams: unknown[] = [];
  const changes: string[] = [];
  const changesParams: unknown[] = [];
  for (const [field, value] of fields) {
    if (!plainField(field)) return undefined;
    const type = `json_type(doc, '$.${field}')`;
    if (value === null) {
      paths.push(`'$.${field}', json('null')`);
      changes.push(`${type} IS NOT 'null'`);
    } else if (typeof value === 'string' && !SURROGATE.test(value)) {
      paths.push(`'$.${field}', ?`);
      setParams.push(value);
      changes.push(`${type} IS NOT 'text' OR json_extract(doc, '$.${field}') IS NOT ?`);
      changesParams.push(value);
    } else if (typeof value === 'number' && Number.isFinite(value)) {
      paths.push(`'$.${field}', json(?)`);
      setParams.push(JSON.stringify(value));
      changes.push(`ifnull(${type} NOT IN ('integer', 'real'), 1) OR json_extract(doc, '$.${field}') IS NOT ?`);
      changesParams.push(value);
    } else return undefined;
  }
  return {
    fields: fields.map(([field]) => field),
    set: `json_set(doc, ${paths.join(', ')})`,
    setParams,
    changes: `(${changes.map((each) => `(${each})`).join(' OR ')})`,
    changesParams,
  };
}
