import { agentRunRefInputSchema } from '@vrs/contracts';
import { AppError, forRequest, procedure } from '@vrs/kit';
import type { AgentsDeps } from '../../agents-deps';
import { endRun } from '../../execution/end-run';
import { requireOwnedRun } from './require-owned-run';
import { toCompactRun } from './to-run-view';

/**
 * pending/running → cancelled. The executor notices before its next tool call and stops; the run is
 * charged for the steps persisted until now. Cancelling a cancelled run answers it again; a
 * completed or failed one is 409 AGENT_RUN_NOT_CANCELLABLE.
 */
export const cancelAgentRun = (deps: AgentsDeps) =>
  procedure.input(agentRunRefInputSchema).mutation(async ({ input, ctx }) => {
    const run = await requireOwnedRun(deps, input);
    if (run.status === 'pending' || run.status === 'running')
      await endRun({ ...deps, billing: forRequest(deps.billing, ctx) }, run._id, { status: 'cancelled' });
    const current = await deps.runs.findById(run._id);
    // Deleted with its account since it was read: gone, as for any unknown run.
    if (!current) throw new AppError('AGENT_RUN_NOT_FOUND');
    if (current.status !== 'cancelled') throw new AppError('AGENT_RUN_NOT_CANCELLABLE', undefined, { status: current.status });
    return toCompactRun(current, await deps.steps.ofRun(current._id));
  });
