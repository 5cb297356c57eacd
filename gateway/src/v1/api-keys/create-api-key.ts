import { createdApiKeySchema, maxActiveApiKeysPerAccount, type Scope, createApiKeyInput } from '@vrs/contracts';
import { AppError } from '@vrs/kit';
import type { Principal } from '../../context';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

/** A key or CLI session may hand on only what it holds itself; a session cookie or demo user holds every scope. */
function refuseScopesNotHeld(principal: Principal, requested: Scope[]): void {
  if (principal.scopes === 'owner') return;
  const held = principal.scopes;
  const missing = requested.filter((scope) => !held.has(scope));
  if (missing.length > 0) {
    throw new AppError('INSUFFICIENT_SCOPE', `A new key may only hold scopes this credential holds; it lacks ${missing.join(', ')}.`, {
      required: requested,
      missing,
    });
  }
}

export const createApiKey = protectedOperation({
  method: 'POST',
  path: '/api-keys',
  operationId: 'createApiKey',
  tags: ['Authentication'],
  summary: 'Create an API key',
  description: `The answer is the only time the key (\`aty_…\`) is shown: only its hash is stored. The key holds the \`scopes\` named (a key or CLI session can grant only scopes it holds itself: 403 \`INSUFFICIENT_SCOPE\` otherwise) and works until \`expiresAt\`, or until deleted when there is none. An account holds at most ${maxActiveApiKeysPerAccount} active keys (409 \`API_KEY_LIMIT_REACHED\`).`,
  errorResponses: [...authenticatedErrors, 409, 422],
})
  .input(createApiKeyInput)
  .output(createdApiKeySchema)
  .mutation(({ ctx, input }) => {
    refuseScopesNotHeld(ctx.principal, input.scopes);
    return ctx.services.billing.apiKeys.create.mutate({ accountId: ctx.principal.accountId, ...input });
  });
