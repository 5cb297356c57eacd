import { allowAgentAccountInputSchema } from '@vrs/contracts';
import { AppError, forRequest, procedure } from '@vrs/kit';
import type { AgentsDeps } from '../../agents-deps';

/**
 * Operator procedure (`npm run agents:allow`): stores whether an account may admit runs; effective at
 * once. Only an existing account may be allowed, and one that signed up with an email address only
 * once it is verified (accounts without one — API keys, demo users — have nothing to verify).
 */
export const allowAgentAccount = ({ access, billing, now }: AgentsDeps) =>
  procedure.input(allowAgentAccountInputSchema).mutation(async ({ input, ctx }) => {
    if (input.allowed) {
      const account = await forRequest(billing, ctx).accounts.get.query({ accountId: input.accountId });
      if (account.email && !account.verified) {
        throw new AppError('AGENTS_ACCOUNT_NOT_VERIFIED', `Account ${input.accountId} has not verified ${account.email} yet.`);
      }
    }
    await access.set(input.accountId, input.allowed, new Date(now()).toISOString());
    return { accountId: input.accountId, allowed: input.allowed };
  });
