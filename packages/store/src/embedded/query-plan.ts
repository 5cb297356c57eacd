/**
 * What of a MongoDB filter and sort SQL can answer. A condition goes to SQL only on a path whose
 * values are known to be scalar (see isScalarAt) and with a string or number operand, where SQL's
 * comparison is exactly MongoDB's; everything else stays with mingo, which then re-checks every row
 * SQL returns. `exact` says SQL's rows need no re-check (and may then be limited in SQL).
 */
export interface FilterPlan {
  where: string[];
  params: unknown[];
  exact: boolean;
  /** An `_id` equality is in the SQL: at most one row can match. */
  pinsId: boolean;
}

/** The SQL expression for a path whose values SQL compares like MongoDB, else undefined. */
export type PushablePath = (path: string) => string | undefined;

/**
 * The condition of a partial index that only holds documents having `path` (`$exists: true`), or
 * undefined. A comparison with a string or number implies it; SQLite uses a partial index only when
 * the query states its condition, so the plan states it too.
 */
export type ExistenceTerm = (path: string) => string | undefined;

/** How SQL may read each path of a collection (see CollectionSchema). */
export interface PathRules {
  pushable: PushablePath;
  existence: ExistenceTerm;
  /** The SQL expression of a path SQL may test for true or false (with json_type), else undefined. */
  booleanPushable: PushablePath;
}

type Operand = string | number;

function isOperand(value: unknown): value is Operand {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof RegExp) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => key.startsWith('$'));
}

export function planFilter(filter: Record<string, unknown>, rules: PathRules): FilterPlan {
  const plan: FilterPlan = { where: [], params: [], exact: true, pinsId: false };
  addFilter(plan, filter, rules);
  return plan;
}

function addFilter(plan: FilterPlan, filter: Record<string, unknown>, rules: PathRules): void {
  const { pushable, existence } = rules;
  for (const [key, condition] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(condition)) {
      for (const clause of condition) {
        if (typeof clause === 'object' && clause !== null) addFilter(plan, clause as Record<string, unknown>, rules);
        else plan.exact = false;
      }
      continue;
    }
    if (key === '$or' && Array.isArray(condition) && condition.length > 0) {
      addAlternatives(plan, condition, rules);
      continue;
    }
    if (!key.startsWith('$') && addBooleanEquality(plan, key, condition, rules)) continue;
    const expression = key.startsWith('$') ? undefined : pushable(key);
    // The `_id` column has text affinity and would turn a number operand into text: only strings go there.
    const accepts = (operand: unknown): operand is Operand => isOperand(operand) && (expression !== 'id' || typeof operand === 'string');
    // A plain value (or null) is its `$eq`.
    const operators = condition === null || accepts(condition) ? { $eq: condition } : isOperatorObject(condition) ? condition : undefined;
    if (!expression) {
      plan.exact = false;
      addTextPrefilter(plan, key, condition);
    } else if (operators) {
      let compared = false;
      for (const [operator, operand] of Object.entries(operators)) {
        const added = addOperator(plan, expression, operator, operand, accepts);
        if (!added) plan.exact = false;
        // An equality, a comparison or a non-empty `$in` (whose members are all strings or numbers once in SQL) implies the path exists.
        else if (operand !== null) compared = true;
      }
      if (compared) addExistence(plan, existence(key));
    } else {
      plan.exact = false;
    }
  }
}

/**
 * An equality to true or false (`{enabled: true}`, `{enabled: {$eq: false}}`) on a path that holds no
 * arrays or documents: json_extract reads a boolean as 1 or 0, so its equality serves an index on the
 * path and json_type keeps true apart from 1. False when the condition is another one.
 */
function addBooleanEquality(plan: FilterPlan, key: string, condition: unknown, rules: PathRules): boolean {
  const wanted =
    typeof condition === 'boolean'
      ? condition
      : isOperatorObject(condition) && Object.keys(condition).length === 1 && typeof condition.$eq === 'boolean'
        ? condition.$eq
        : undefined;
  if (wanted === undefined) return false;
  const expression = rules.booleanPushable(key);
  if (!expression) return false;
  plan.where.push(`${expression} = ?`, `json_type(doc, '$.${key}') = '${wanted}'`);
  plan.params.push(wanted ? 1 : 0);
  addExistence(plan, rules.existence(key));
  return true;
}

function addExistence(plan: FilterPlan, term: string | undefined): void {
  if (term && !plan.where.includes(term)) plan.where.push(term);
}

/**
 * A condition SQL cannot decide (the path is not indexed, or may hold arrays) still narrows the rows
 * to parse when it asks for a string: a document equal to "x" at any path, inside arrays too, has
 * `"x"` (JSON.stringify's spelling, which wrote the document) somewhere in its text. A superset, so
 * mingo still decides; scanning text in SQLite costs far less than parsing every document.
 */
function addTextPrefilter(plan: FilterPlan, key: string, condition: unknown): void {
  if (key.startsWith('$')) return;
  const wanted = typeof condition === 'string' ? condition : isOperatorObject(condition) ? condition.$eq : undefined;
  if (typeof wanted !== 'string') return;
  plan.where.push('instr(doc, ?) > 0');
  plan.params.push(JSON.stringify(wanted));
}

/**
 * `$or`: each branch planned on its own; when every branch puts something in SQL, their disjunction
 * is a superset of the matches (exact when every branch is), e.g. a keyset cursor
 * `{$or: [{createdAt: {$lt: t}}, {createdAt: t, _id: {$lt: id}}]}` read from an index.
 */
function addAlternatives(plan: FilterPlan, branches: unknown[], rules: PathRules): void {
  const planned: FilterPlan[] = [];
  for (const branch of branches) {
    const branchPlan = typeof branch === 'object' && branch !== null ? planFilter(branch as Record<string, unknown>, rules) : undefined;
    if (!branchPlan || branchPlan.where.length === 0) {
      plan.exact = false;
      return;
    }
    planned.push(branchPlan);
  }
  plan.where.push(`(${planned.map((branch) => `(${branch.where.join(' AND ')})`).join(' OR ')})`);
  for (const branch of planned) plan.params.push(...branch.params);
  if (!planned.every((branch) => branch.exact)) plan.exact = false;
}

const COMPARISONS: Record<string, string> = { $eq: '=', $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' };

/** Adds one operator's SQL; false when it stays with mingo. */
function addOperator(
  plan: FilterPlan,
  expression: string,
  operator: string,
  operand: unknown,
  accepts: (operand: unknown) => operand is Operand,
): boolean {
  if (operator === '$eq' && operand === null) {
    plan.where.push(`${expression} IS NULL`);
    return true;
  }
  const comparison = COMPARISONS[operator];
  if (comparison) {
    if (!accepts(operand)) return false;
    plan.where.push(`${expression} ${comparison} ?`);
    plan.params.push(operand);
    if (expression === 'id' && comparison === '=') plan.pinsId = true;
    // MongoDB compares within one type; SQLite orders numbers before text, so the open side of a
    // range is closed at the type's edge ('' is the least text, and above every number).
    if (typeof operand === 'number' && comparison.startsWith('>')) plan.where.push(`${expression} < ''`);
    if (typeof operand === 'string' && comparison.startsWith('<')) plan.where.push(`${expression} >= ''`);
    return true;
  }
  if (operator === '$in') {
    if (!Array.isArray(operand) || !operand.every((item) => accepts(item))) return false;
    if (operand.length === 0) plan.where.push('0');
    else {
      plan.where.push(`${expression} IN (${operand.map(() => '?').join(', ')})`);
      plan.params.push(...operand);
    }
    return true;
  }
  return false;
}

/** ORDER BY for a sort SQL can do exactly, or undefined. */
export function planSort(sort: Record<string, 1 | -1> | undefined, pushable: PushablePath): string | undefined {
  if (!sort) return undefined;
  const terms: string[] = [];
  for (const [path, direction] of Object.entries(sort)) {
    const expression = pushable(path);
    if (!expression) return undefined;
    terms.push(`${expression} ${direction === -1 ? 'DESC' : 'ASC'}`);
  }
  return terms.length ? terms.join(', ') : undefined;
}
