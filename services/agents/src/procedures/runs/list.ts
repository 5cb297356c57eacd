import { listAgentRunsInputSchema } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { AgentsDeps } from '../../agents-deps';
import { toCompactRun } from './to-run-view';

/** The session's runs, newest first, paged with `limit` + `cursor` like every list (ADR 0020). */
export const listAgentRuns = (deps: AgentsDeps) =>
  procedure.input(listAgentRunsInputSchema).query(async ({ input }) => {
    const { runs, sessions, steps } = deps;
    if (!(await sessions.findOwned(input.accountId, input.sessionId))) throw new AppError('AGENT_SESSION_NOT_FOUND');
    const page = await runs.listInSession(input.sessionId, { limit: input.limit, cursor: input.cursor });
    const data = await Promise.all(page.data.map(async (run) => toCompactRun(run, await steps.ofRun(run._id))));
    return { ...page, data };
  });
