import type { z } from 'zod';

/**
 * The keys a strict object refused, as dotted paths (`include.coments`, `items.1.sorceKey`). Only
 * top-level issues count: zod reports the issues of a union's closest member as its own, and a
 * union no member of which came close is a validation failure, not an unknown key.
 */
export const unknownKeys = (error: z.ZodError): string[] =>
  error.issues.flatMap((issue) => (issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...issue.path, key].join('.')) : []));
