import { touchApiKeysInputSchema } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import { z } from 'zod';
import type { BillingDeps } from '../../billing-deps';

/**
 * Records last uses the gateway batched (no store write per request): each key's lastUsedAt becomes
 * the later of its own and the use, so batches from several gateways may arrive in any order.
 * Unknown keys are skipped: a key may be deleted between its use and the flush.
 */
export function touchApiKeys({ repo }: BillingDeps) {
  return procedure
    .input(touchApiKeysInputSchema)
    .output(z.object({ updated: z.number().int().min(0) }))
    .mutation(async ({ input }) => {
      let updated = 0;
      for (const { keyId, at } of input.uses) {
        if (await repo.apiKeys.touch(keyId, new Date(at).toISOString())) updated++;
      }
      return { updated };
    });
}
