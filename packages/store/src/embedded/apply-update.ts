import { randomUUID } from 'node:crypto';
import { update as updateWithCondition } from 'mingo';
import * as updateOperators from 'mingo/operators/update';
import type { AnyObject } from 'mingo/types';
import type { Modifier } from 'mingo/updater';
import type { StoreDocument, Update } from '../port';
import { equalityFields, explicitUpsertId } from '../upsert-seed';
import { deepCopy, toStored } from './json-value';

type Operators = Record<string, Record<string, unknown>>;
type Mutator = (doc: AnyObject) => string[];
type OperatorFactory = (expr: Record<string, unknown>) => Mutator;

// mingo's own update() rebuilds its operator tables on every call (~60 µs); its operators, compiled
// once per call here, cost a few µs. Only positional updates need update() (it takes the filter).
const OPERATORS = updateOperators as unknown as Record<string, OperatorFactory>;
const POSITIONAL = /\.\$(\.|$)/;

/** An update checked, copied and compiled once per call, however many documents it touches. */
export interface PreparedUpdate {
  readonly operators: Operators;
  /** What a matched document gets: `$setOnInsert` applies to inserts only. */
  readonly onMatch: Operators;
  readonly mutators: Mutator[];
  /** Whether a path uses the positional `$`, which needs the filter to find its element. */
  readonly positional: boolean;
}

export function prepareUpdate(update: Update): PreparedUpdate {
  const operators = toStored(update) as Operators;
  for (const operator of Object.keys(operators)) {
    if (operator === '$currentDate') throw new TypeError('$currentDate would store a Date: $set an ISO string instead');
    if (operator !== '$setOnInsert' && !OPERATORS[operator]) throw new TypeError(`unknown update operator: ${operator}`);
  }
  assertNoConflicts(operators);
  const { $setOnInsert: _insertOnly, ...onMatch } = operators;
  const positional = Object.values(onMatch).some((fields) => Object.keys(fields).some((path) => POSITIONAL.test(path)));
  return { operators, onMatch, mutators: positional ? [] : compile(onMatch), positional };
}

/** A changed copy of a stored document, or undefined when the update changes nothing. */
export function updatedCopy<T extends StoreDocument>(doc: T, update: PreparedUpdate, filter: Record<string, unknown>): T | undefined {
  const copy = deepCopy(doc) as unknown as AnyObject;
  let changed = false;
  if (update.positional) {
    changed = updateWithCondition(copy, update.onMatch as Modifier<AnyObject>, undefined, filter).length > 0;
  } else {
    for (const mutate of update.mutators) if (mutate(copy).length) changed = true;
  }
  return changed ? (copy as unknown as T) : undefined;
}

/**
 * The document an upsert inserts, as MongoDB builds it: the filter's equality fields, then the
 * update with `$setOnInsert` included; `_id` from the filter or the update, else a new UUID.
 */
export function upsertDocument<T extends StoreDocument>(filter: Record<string, unknown>, update: PreparedUpdate): T {
  const id = explicitUpsertId(filter, update.operators) ?? randomUUID();
  if (typeof id !== 'string') throw new TypeError(`store documents need a string _id, got ${typeof id}`);
  const doc: AnyObject = { _id: id };
  for (const [path, value] of equalityFields(filter)) {
    if (path !== '_id' && value !== undefined) setPath(doc, path, toStored(value));
  }
  const { $setOnInsert, ...operators } = update.operators;
  // `_id` is already in place, and mingo refuses any write to it.
  const { _id, ...set } = { ...operators.$set, ...$setOnInsert };
  if (Object.keys(set).length) operators.$set = set;
  else delete operators.$set;
  for (const mutate of compile(operators)) mutate(doc);
  return doc as T;
}

function compile(operators: Operators): Mutator[] {
  return Object.entries(operators).map(([operator, fields]) => {
    const operatorFactory = OPERATORS[operator];
    if (!operatorFactory) throw new TypeError(`unknown update operator: ${operator}`);
    return operatorFactory(fields);
  });
}

/** MongoDB refuses an update in which two paths overlap (`a` and `a.b`, or the same path twice). */
function assertNoConflicts(operators: Operators): void {
  const paths = Object.values(operators).flatMap((fields) => Object.keys(fields));
  if (paths.length < 2) return;
  const seen = new Set<string>();
  for (const path of paths.sort((a, b) => a.length - b.length)) {
    for (let dot = path.indexOf('.'); dot !== -1; dot = path.indexOf('.', dot + 1)) {
      if (seen.has(path.slice(0, dot))) throw new Error(`updating the path '${path}' would create a conflict at '${path.slice(0, dot)}'`);
    }
    if (seen.has(path)) throw new Error(`updating the path '${path}' would create a conflict at '${path}'`);
    seen.add(path);
  }
}

function setPath(doc: AnyObject, path: string, value: unknown): void {
  const segments = path.split('.');
  const leaf = segments.pop() ?? path;
  let target = doc;
  for (const segment of segments) {
    const next = target[segment];
    target = target[segment] = typeof next === 'object' && next !== null && !Array.isArray(next) ? (next as AnyObject) : {};
  }
  target[leaf] = value;
}
