import { accountRefSchema, scopeSchema } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import { z } from 'zod';
import type { BillingDeps } from '../../billing-deps';

const apiKeySummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(scopeSchema),
  createdAt: z.iso.datetime(),
  revokedAt: z.iso.datetime().nullable(),
});

/** An account's keys, newest first, revoked ones included; never the key or its hash. */
export function listApiKeys({ repo }: BillingDeps) {
  return procedure
    .input(accountRefSchema)
    .output(z.array(apiKeySummarySchema))
    .query(async ({ input }) => {
      const apiKeys = await repo.apiKeys.listByAccount(input.accountId);
      return apiKeys.map(({ _id, name, prefix, scopes, createdAt, revokedAt }) => ({
        id: _id,
        name,
        prefix,
        scopes,
        createdAt,
        revokedAt,
      }));
    });
}
