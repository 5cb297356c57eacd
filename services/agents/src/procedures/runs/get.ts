import { getAgentRunInputSchema, type AgentRunView } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { AgentsDeps } from '../../agents-deps';
import { requireOwnedRun } from './require-owned-run';
import { toRunView } from './to-run-view';

/** The run's current status and, once ended, its persisted result, in the format asked for. */
export const getAgentRun = (deps: AgentsDeps) =>
  procedure.input(getAgentRunInputSchema).query(async ({ input }): Promise<AgentRunView> => {
    const run = await requireOwnedRun(deps, input);
    return toRunView(run, await deps.steps.ofRun(run._id), input.responseFormat, input.details);
  });
