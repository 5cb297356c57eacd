import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contracts from './index';

const schemas = Object.entries(contracts as Record<string, unknown>).filter(
  (entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType,
);

// A plain z.object strips a key it does not declare: an internal caller's misspelt key would be dropped silently.
describe('strict inputs', () => {
  it("every service procedure's input (…InputSchema) and every operation's input (…Input) refuses an undeclared key", () => {
    const inputs = schemas.filter(([name]) => /(Input|InputSchema)$/.test(name));
    expect(inputs.length).toBeGreaterThan(100);
    const open = inputs.filter(([, schema]) => {
      const parsed = schema.safeParse({ notDeclaredAnywhere: 1 });
      return parsed.success || !parsed.error.issues.some((issue) => issue.code === 'unrecognized_keys');
    });
    expect(open.map(([name]) => name)).toEqual([]);
  });
});
