import type { z } from 'zod';

/** The parts of a zod 4 schema's definition (its public `.def`) this walk reads. */
interface SchemaDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  discriminator?: string;
  values?: unknown[];
  left?: z.ZodType;
  right?: z.ZodType;
  getter?: () => z.ZodType;
}

const defOf = (schema: z.ZodType): SchemaDef => schema.def as SchemaDef;

/** Wrappers that do not change which keys an input may carry. */
const transparent = new Set(['optional', 'default', 'prefault', 'nullable', 'readonly', 'catch', 'nonoptional']);

function unwrapped(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if (transparent.has(def.type) && def.innerType) current = def.innerType;
    else if (def.type === 'pipe' && def.in) current = def.in;
    else if (def.type === 'lazy' && def.getter) current = def.getter();
    else return current;
  }
}

/**
 * The object shapes a value may take under `schema`: one for an object, one per member for a union
 * (an intersection joins its sides). `undefined` when the schema accepts any key (a record, a loose
 * object) or is not an object at all.
 */
function shapesOf(schema: z.ZodType, value: Record<string, unknown>): Record<string, z.ZodType>[] | undefined {
  const def = defOf(unwrapped(schema));
  if (def.type === 'object') return def.catchall === undefined || defOf(def.catchall).type === 'never' ? [def.shape ?? {}] : undefined;
  if (def.type === 'union' && def.options) {
    const shapes = memberFor(def, value).map((option) => shapesOf(option, value));
    return shapes.some((shape) => shape === undefined) ? undefined : (shapes.flat() as Record<string, z.ZodType>[]);
  }
  if (def.type === 'intersection' && def.left && def.right) {
    const [left, right] = [shapesOf(def.left, value), shapesOf(def.right, value)];
    return left && right ? [Object.assign({}, ...left, ...right)] : undefined;
  }
  return undefined;
}

/** A discriminated union's member named by the value's discriminator, when it names one; else every member. */
function memberFor(def: SchemaDef, value: Record<string, unknown>): z.ZodType[] {
  const options = def.options ?? [];
  if (!def.discriminator) return options;
  const chosen = options.filter((option) => {
    const tag = defOf(unwrapped(option)).shape?.[def.discriminator!];
    return tag !== undefined && (defOf(unwrapped(tag)).values ?? []).includes(value[def.discriminator!]);
  });
  return chosen.length === 1 ? chosen : options;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Every key of `value` that `schema` does not declare, as dotted paths (`include.coments`), found
 * at every depth where the schema names its keys. Zod would strip such keys silently; a misspelled
 * parameter must be an error instead. A discriminated union is checked against the member its
 * discriminator names; in any other union a key is known if a member declares it, and only keys
 * declared by exactly one member are followed deeper.
 */
export function undeclaredKeys(schema: z.ZodType, value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) {
    const element = defOf(unwrapped(schema));
    if (element.type !== 'array' || !element.element) return [];
    return value.flatMap((item, index) => undeclaredKeys(element.element!, item, `${prefix}${index}.`));
  }
  if (!isPlainObject(value)) return [];
  const shapes = shapesOf(schema, value);
  if (!shapes) return [];
  const found: string[] = [];
  for (const key of Object.keys(value)) {
    const declaring = shapes.filter((shape) => Object.hasOwn(shape, key));
    if (declaring.length === 0) found.push(`${prefix}${key}`);
    else if (declaring.length === 1) found.push(...undeclaredKeys(declaring[0]![key]!, value[key], `${prefix}${key}.`));
  }
  return found;
}
