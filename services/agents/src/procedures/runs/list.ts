import { listAgentRunsInputSchema } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { AgentsDeps } from '../../agents-deps';
import { toCompactRun } from './to-run-view';

const invalidCursorMessage = 'startingAfter must be the runId of one of this session’s runs (the last one of the previous page).';

/** The session's runs, newest first, paged with `limit` + `startingAfter` like every list (ADR 0006). */
export const listAgentRuns = (deps: AgentsDeps) =>
  procedure.input(listAgentRunsInputSchema).query(async ({ input }) => {
    const { runs, sessions, steps } = deps;
    if (!(await sessions.findOwned(input.accountId, input.sessionId))) throw new AppError('AGENT_SESSION_NOT_FOUND');
    let after: Awaited<ReturnType<typeof runs.findOwned>> | undefined;
    if (input.startingAfter !== undefined) {
      after = await runs.findOwned(input.accountId, input.sessionId, input.startingAfter);
      if (!after) {
        throw new AppError('VALIDATION_FAILED', invalidCursorMessage, {
          issues: [{ path: 'startingAfter', message: invalidCursorMessage, code: 'invalid_cursor' }],
        });
      }
    }
    const page = await runs.listInSession(input.sessionId, input.limit, after ?? undefined);
    const views = await Promise.all(page.runs.map(async (run) => toCompactRun(run, await steps.ofRun(run._id))));
    return { runs: views, hasMore: page.hasMore };
  });
