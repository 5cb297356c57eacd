import type { Update } from './port';

/**
 * The equality conditions of a filter, as [path, value] pairs: what MongoDB copies into the
 * document an upsert inserts (`{a: 1}`, `{a: {$eq: 1}}`, and the same inside `$and`).
 */
export function equalityFields(filter: Record<string, unknown>): Array<[string, unknown]> {
  const fields: Array<[string, unknown]> = [];
  for (const [key, condition] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(condition)) {
      for (const clause of condition) fields.push(...equalityFields(clause as Record<string, unknown>));
    } else if (key.startsWith('$') || condition instanceof RegExp) {
    } else if (isOperatorObject(condition)) {
      if ('$eq' in condition) fields.push([key, condition.$eq]);
    } else {
      fields.push([key, condition]);
    }
  }
  return fields;
}

/**
 * The `_id` an upsert would insert with when the caller chose one: from the filter's equality
 * conditions, else from `$setOnInsert` / `$set`. Both adapters generate a UUID when this is
 * undefined, so the port's `_id` is a string on either (MongoDB would otherwise make an ObjectId).
 */
export function explicitUpsertId(filter: Record<string, unknown>, update: Update): unknown {
  const fromFilter = equalityFields(filter).find(([path]) => path === '_id');
  if (fromFilter) return fromFilter[1];
  return operand(update.$setOnInsert)?._id ?? operand(update.$set)?._id;
}

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const key in value) return key.startsWith('$');
  return false;
}

function operand(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}
