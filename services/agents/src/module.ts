import { componentLogger, readCountsByStatus } from '@vrs/kit';
import { activeAgentRunStatuses, agentsRunRequested, billingAccountDeleted } from '@vrs/contracts';
import type { Subscription } from '@vrs/bus';
import type { ServiceModule } from '@vrs/kit';
import type { AgentsDeps } from './agents-deps';
import { createDeleteAccountDataHandler } from './events/delete-account-data';
import { createExecuteRunHandler } from './events/execute-run';
import { createAccessRepo } from './repo/access-repo';
import { createRunEventsRepo } from './repo/run-events-repo';
import { createRunsRepo } from './repo/runs-repo';
import { createSessionsRepo } from './repo/sessions-repo';
import { createStepsRepo } from './repo/steps-repo';
import { createAgentsRouter, type AgentsRouter } from './router';

/** The host's store, bus, logger and service clients; without `llm` the deterministic planner answers (ADR 0026). */
export type AgentsModuleOptions = Pick<
  AgentsDeps,
  'store' | 'bus' | 'logger' | 'provider' | 'research' | 'billing' | 'trends' | 'settings'
> &
  Partial<Pick<AgentsDeps, 'llm' | 'now'>>;

/** Durable consumer shared by every replica: the work queue of runs; an unacked run is redelivered after a crash. */
const executorConsumerName = 'agents-executor';
/** Durable consumer of `billing.account.deleted`: removes a deleted account's sessions and runs (ADR 0033). */
const accountDeletionConsumerName = 'agents-account-deletion';

export async function createAgentsModule(options: AgentsModuleOptions): Promise<ServiceModule<AgentsRouter>> {
  const { store, bus, logger } = options;
  const runs = createRunsRepo(store);
  const deps: AgentsDeps = {
    ...options,
    runs,
    sessions: createSessionsRepo(store),
    steps: createStepsRepo(store),
    runEvents: createRunEventsRepo(store, runs),
    access: createAccessRepo(store),
    llm: options.llm ?? null,
    now: options.now ?? Date.now,
  };
  const router = createAgentsRouter(deps);
  let executor: Subscription | undefined;
  let accountDeletion: Subscription | undefined;
  let stopping = false;
  let stopMetrics = () => {};

  return {
    name: 'agents',
    router,
    async start() {
      stopping = false;
      await Promise.all([
        deps.runs.ensureIndexes(),
        deps.sessions.ensureIndexes(),
        deps.steps.ensureIndexes(),
        deps.runEvents.ensureIndexes(),
        bus.ensureStreams(['agents']),
      ]);
      stopMetrics = readCountsByStatus(
        { name: 'vrs_agent_runs', help: 'Agent runs not yet finished, by status.' },
        activeAgentRunStatuses,
        deps.runs.countWithStatus,
      );
      executor = await bus.subscribe(
        executorConsumerName,
        agentsRunRequested,
        createExecuteRunHandler({ ...deps, logger: componentLogger(logger, executorConsumerName), stopping: () => stopping }),
      );
      accountDeletion = await bus.subscribe(
        accountDeletionConsumerName,
        billingAccountDeleted,
        createDeleteAccountDataHandler({ ...deps, logger: componentLogger(logger, accountDeletionConsumerName) }),
      );
    },
    async stop() {
      stopping = true;
      stopMetrics();
      await Promise.all([executor?.stop(), accountDeletion?.stop()]);
      executor = undefined;
      accountDeletion = undefined;
    },
  };
}
