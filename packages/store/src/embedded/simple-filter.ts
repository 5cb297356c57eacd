/**
 * A matcher for the filters repositories use on hot paths — field equality and comparisons of
 * strings, numbers and booleans, e.g. `{_id, balance: {$gte: 5}}` or `{_id, status: 'reserved'}` —
 * evaluated without compiling a mingo Query (which costs more than the lookup it serves).
 *
 * It declines (returns undefined) whenever MongoDB's rules get subtle: null operands, arrays or
 * documents in the filter or in the examined field, dotted paths through arrays, `$` operators at
 * the top level. The caller then uses mingo, so semantics never depend on this shortcut.
 */
type Scalar = string | number | boolean;
type Test = (value: unknown) => boolean | undefined;

const comparators: Record<string, (a: Scalar, b: Scalar) => boolean> = {
  $gt: (a, b) => a > b,
  $gte: (a, b) => a >= b,
  $lt: (a, b) => a < b,
  $lte: (a, b) => a <= b,
};

function isScalar(value: unknown): value is Scalar {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** undefined: this value needs MongoDB's full rules (arrays, documents, null). */
function scalarOrMissing(value: unknown): Scalar | null | undefined {
  if (value === undefined || isScalar(value)) return (value as Scalar | undefined) ?? null;
  return undefined;
}

function conditionTest(condition: unknown): Test | undefined {
  if (isScalar(condition)) return conditionTest({ $eq: condition });
  if (typeof condition !== 'object' || condition === null || Array.isArray(condition)) return undefined;
  const tests: Test[] = [];
  for (const [operator, operand] of Object.entries(condition)) {
    if (operator === '$eq' || operator === '$ne') {
      if (!isScalar(operand)) return undefined;
      const negate = operator === '$ne';
      tests.push((value) => {
        const v = scalarOrMissing(value);
        return v === undefined ? undefined : (v === operand) !== negate;
      });
    } else if (comparators[operator]) {
      const compare = comparators[operator];
      if (typeof operand !== 'number' && typeof operand !== 'string') return undefined;
      // MongoDB compares within a type only: a number never matches a string bound, a missing field never matches.
      tests.push((value) => {
        const v = scalarOrMissing(value);
        if (v === undefined) return undefined;
        return typeof v === typeof operand && compare(v as Scalar, operand);
      });
    } else if (operator === '$exists') {
      if (typeof operand !== 'boolean') return undefined;
      tests.push((value) => (value !== undefined) === operand);
    } else if (operator === '$in' || operator === '$nin') {
      if (!Array.isArray(operand) || !operand.every(isScalar)) return undefined;
      const members = new Set<unknown>(operand);
      const negate = operator === '$nin';
      tests.push((value) => {
        const v = scalarOrMissing(value);
        return v === undefined ? undefined : members.has(v) !== negate;
      });
    } else {
      return undefined;
    }
  }
  return (value) => {
    for (const test of tests) {
      const result = test(value);
      if (result !== true) return result;
    }
    return true;
  };
}

function readPath(doc: Record<string, unknown>, path: string[]): { value: unknown } | undefined {
  let current: unknown = doc;
  for (const key of path) {
    if (current === undefined || current === null) return { value: undefined };
    if (typeof current !== 'object' || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return { value: current };
}

/** A matcher for `filter`, or undefined when the filter is not simple; the matcher answers undefined when a document is not. */
export function compileSimpleFilter(filter: Record<string, unknown>): ((doc: object) => boolean | undefined) | undefined {
  const fields: Array<{ path: string[]; test: Test }> = [];
  for (const [field, condition] of Object.entries(filter)) {
    if (field.startsWith('$')) return undefined;
    const test = conditionTest(condition);
    if (!test) return undefined;
    fields.push({ path: field.split('.'), test });
  }
  return (doc) => {
    for (const { path, test } of fields) {
      const read = readPath(doc as Record<string, unknown>, path);
      if (!read) return undefined;
      const result = test(read.value);
      if (result !== true) return result;
    }
    return true;
  };
}
