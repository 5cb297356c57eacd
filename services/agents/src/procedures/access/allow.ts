import { allowAgentAccountInputSchema } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { AgentsDeps } from '../../agents-deps';

/** Operator procedure (`npm run agents:allow`): stores whether an account may admit runs; effective at once. */
export const allowAgentAccount = ({ access, now }: AgentsDeps) =>
  procedure.input(allowAgentAccountInputSchema).mutation(async ({ input }) => {
    await access.set(input.accountId, input.allowed, new Date(now()).toISOString());
    return { accountId: input.accountId, allowed: input.allowed };
  });
