import { getAgentRunInputSchema, type AgentRunView } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { AgentsDeps } from '../../agents-deps';
import { requireOwnedRun } from './require-owned-run';
import { toCompactRun, toLegacyRun } from './to-run-view';

/** The run's current status and, once ended, its persisted result, in the format asked for. */
export const getAgentRun = (deps: AgentsDeps) =>
  procedure.input(getAgentRunInputSchema).query(async ({ input }): Promise<AgentRunView> => {
    const run = await requireOwnedRun(deps, input);
    const steps = await deps.steps.ofRun(run._id);
    return input.responseFormat === 'legacy' ? toLegacyRun(run, steps) : toCompactRun(run, steps, input.details);
  });
