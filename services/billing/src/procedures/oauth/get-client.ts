import { getOAuthClientInputSchema, oauthClientSchema } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';

/** A registered client, or null: the gateway checks client_id and redirect_uri with it. */
export function getOAuthClient({ repo }: BillingDeps) {
  return procedure
    .input(getOAuthClientInputSchema)
    .output(oauthClientSchema.nullable())
    .query(async ({ input }) => {
      const client = await repo.oauthClients.findById(input.clientId);
      if (!client) return null;
      const { _id, ...rest } = client;
      return { clientId: _id, ...rest };
    });
}
