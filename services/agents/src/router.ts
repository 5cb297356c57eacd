import { router } from '@vrs/kit';
import type { AgentsDeps } from './agents-deps';
import { allowAgentAccount } from './procedures/access/allow';
import { checkHealth } from './procedures/health/check';
import { cancelAgentRun } from './procedures/runs/cancel';
import { createAgentRun } from './procedures/runs/create';
import { getAgentRun } from './procedures/runs/get';
import { listAgentRuns } from './procedures/runs/list';
import { listAgentRunEvents } from './procedures/runs/list-events';

/** Internal procedures of the agents service; the gateway passes the authenticated accountId. */
export function createAgentsRouter(deps: AgentsDeps) {
  return router({
    health: checkHealth(deps),
    runs: router({
      create: createAgentRun(deps),
      get: getAgentRun(deps),
      list: listAgentRuns(deps),
      cancel: cancelAgentRun(deps),
      events: listAgentRunEvents(deps),
    }),
    access: router({ allow: allowAgentAccount(deps) }),
  });
}

export type AgentsRouter = ReturnType<typeof createAgentsRouter>;
