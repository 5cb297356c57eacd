import { oauthClientIdPrefix, oauthClientSchema, registerOAuthClientInputSchema } from '@vrs/contracts';
import { procedure, requestLogFields } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';
import { generateToken } from '../../identity/tokens';

/** RFC 7591 registration of a public client; the gateway validated the metadata (ADR 0095). */
export function registerOAuthClient({ repo, logger }: BillingDeps) {
  return procedure
    .input(registerOAuthClientInputSchema)
    .output(oauthClientSchema)
    .mutation(async ({ input, ctx }) => {
      const client = {
        _id: generateToken(oauthClientIdPrefix).slice(0, oauthClientIdPrefix.length + 22),
        clientName: input.clientName,
        redirectUris: input.redirectUris,
        grantTypes: input.grantTypes,
        createdAt: new Date(repo.clock()).toISOString(),
      };
      await repo.oauthClients.insert(client);
      logger.info({ clientId: client._id, ...requestLogFields(ctx) }, 'oauth client registered');
      const { _id, ...rest } = client;
      return { clientId: _id, ...rest };
    });
}
