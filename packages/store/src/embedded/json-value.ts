/**
 * Deep copy of a value about to be stored, refusing what JSON cannot round-trip, so a read gives back
 * what was written (a Date would come back as a string). Fields set to `undefined` are dropped, as
 * JSON.stringify and the mongo adapter (ignoreUndefined) do.
 */
export function toStored(value: unknown): unknown {
  return walkStored(value, true);
}

/**
 * Refuses what `toStored` refuses, with the same message, and copies nothing: for a document that is
 * written out as its JSON at once (an insert), where a copy would only be serialized and dropped.
 * `JSON.stringify` then writes what `toStored`'s copy would have written.
 */
export function checkStorable(value: unknown): void {
  walkStored(value, false);
}

/** `walkJson`, its NotJsonError turned into the refusal both callers throw. */
function walkStored(value: unknown, copy: boolean): unknown {
  try {
    return walkJson(value, copy);
  } catch (error) {
    if (!(error instanceof NotJsonError)) throw error;
    const at = error.path.length ? ` at "${error.path.join('.')}"` : '';
    throw new TypeError(`the embedded store keeps plain JSON values only (store dates as ISO strings); got ${error.found}${at}`);
  }
}

/** Deep copy of plain objects and arrays; other objects (e.g. Dates made by a pipeline) are kept. */
export function deepCopy<V>(value: V): V {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(deepCopy) as V;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = deepCopy((value as Record<string, unknown>)[key]);
  return copy as V;
}

class NotJsonError extends Error {
  readonly path: string[] = [];

  constructor(readonly found: string) {
    super(found);
  }
}

/**
 * JSON's rules for a stored value: what JSON cannot keep is thrown as a NotJsonError naming its
 * path. With `copy`, answers a deep copy without the fields set to undefined (an undefined array
 * item becomes null); without, only walks the value and answers it as it is.
 */
function walkJson(value: unknown, copy: boolean): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (Number.isFinite(value)) return value;
      throw new NotJsonError(String(value));
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) {
        const items = copy ? new Array<unknown>(value.length) : undefined;
        for (let index = 0; index < value.length; index++) {
          const item = value[index] === undefined ? null : walkField(value[index], String(index), copy);
          if (items) items[index] = item;
        }
        return items ?? value;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) throw new NotJsonError(proto?.constructor?.name ?? 'object');
      const fields: Record<string, unknown> | undefined = copy ? {} : undefined;
      for (const key of Object.keys(value)) {
        const item = (value as Record<string, unknown>)[key];
        if (item === undefined) continue;
        // Assigning "__proto__" would change the copy's prototype instead of adding a field.
        if (key === '__proto__') throw new NotJsonError('a "__proto__" key');
        const walked = walkField(item, key, copy);
        if (fields) fields[key] = walked;
      }
      return fields ?? value;
    }
    default:
      throw new NotJsonError(typeof value);
  }
}

function walkField(value: unknown, key: string, copy: boolean): unknown {
  try {
    return walkJson(value, copy);
  } catch (error) {
    if (error instanceof NotJsonError) error.path.unshift(key);
    throw error;
  }
}
