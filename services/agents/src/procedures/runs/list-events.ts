import { listAgentRunEventsInputSchema } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { AgentsDeps } from '../../agents-deps';
import { requireOwnedRun } from './require-owned-run';

/** The run's events after `afterSeq`, and whether the run has ended with nothing after them (the stream may close). */
export const listAgentRunEvents = (deps: AgentsDeps) =>
  procedure.input(listAgentRunEventsInputSchema).query(async ({ input }) => {
    const run = await requireOwnedRun(deps, input);
    const events = await deps.runEvents.after(run._id, input.afterSeq, input.limit);
    const lastSeq = events.at(-1)?.seq ?? input.afterSeq;
    // The stream ends with the event that ended the run, not merely when the run's status says ended.
    const endSeq = await deps.runEvents.endSeq(run._id);
    return { events, ended: endSeq !== undefined && lastSeq >= endSeq };
  });
