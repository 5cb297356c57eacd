import { createdSessionSchema, createSessionInputSchema } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';
import { openSession } from '../../identity/open-session';

/**
 * Opens a web or CLI session (internal: the gateway calls it after a sign-in or a device approval).
 * The token is in this response only. A web session acts as the owner and gets a CSRF token.
 */
export function createSession({ repo, logger }: BillingDeps) {
  return procedure
    .input(createSessionInputSchema)
    .output(createdSessionSchema)
    .mutation(async ({ input, ctx }) => {
      if (!(await repo.accounts.findActive(input.accountId))) throw new AppError('ACCOUNT_NOT_FOUND');
      if (input.kind === 'oauth')
        throw new AppError('VALIDATION_FAILED', 'OAuth grants are opened by the token endpoint, not here (ADR 0095).');
      if (input.kind === 'web' && input.scopes !== null)
        throw new AppError('VALIDATION_FAILED', 'A web session acts as the owner: scopes must be null.');
      if (input.kind === 'cli' && input.scopes === null)
        throw new AppError('VALIDATION_FAILED', 'A CLI session needs its approved scopes.');
      const { session, token } = await openSession(repo, input);
      logger.info(
        { accountId: session.accountId, sessionId: session._id, kind: session.kind, requestId: ctx.requestId },
        'session created',
      );
      return { sessionId: session._id, token, expiresAt: session.expiresAt, csrfToken: session.csrfToken };
    });
}
