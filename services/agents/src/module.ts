import { componentLogger, readCountsByStatus } from '@vrs/kit';
import type { Llm } from '@vrs/ai';
import { activeAgentRunStatuses, agentsRunRequested, billingAccountDeleted } from '@vrs/contracts';
import type { EventBus, Subscription } from '@vrs/bus';
import type { Logger, ServiceModule } from '@vrs/kit';
import type { Store } from '@vrs/store';
import type { AgentsDeps } from './agents-deps';
import type { BillingClient, ProviderClient, ResearchClient, TrendsClient } from './clients';
import type { AgentsSettings } from './config';
import { createDeleteAccountDataHandler } from './events/delete-account-data';
import { createExecuteRunHandler } from './events/execute-run';
import { createAccessRepo } from './repo/access-repo';
import { createRunEventsRepo } from './repo/run-events-repo';
import { createRunsRepo } from './repo/runs-repo';
import { createSessionsRepo } from './repo/sessions-repo';
import { createStepsRepo } from './repo/steps-repo';
import { createAgentsRouter, type AgentsRouter } from './router';

export interface AgentsModuleOptions {
  store: Store;
  bus: EventBus;
  logger: Logger;
  /** YouTube reads (search, videos, transcripts, channels). */
  provider: ProviderClient;
  /** Project evidence search and project ownership. */
  research: ResearchClient;
  /** The credit hold of each run, and its settlement. */
  billing: BillingClient;
  /** Trend reports (tool `get_trend_report`). */
  trends: TrendsClient;
  /** The model of the tool loop, the transcript analyst and storyboard frames; null or absent: the deterministic planner answers (ADR 0026). */
  llm?: Llm | null;
  settings: AgentsSettings;
  now?: () => number;
}

/** Durable consumer shared by every replica: the work queue of runs; an unacked run is redelivered after a crash. */
const executorConsumerName = 'agents-executor';
/** Durable consumer of `billing.account.deleted`: removes a deleted account's sessions and runs (ADR 0033). */
const accountDeletionConsumerName = 'agents-account-deletion';

export async function createAgentsModule(options: AgentsModuleOptions): Promise<ServiceModule<AgentsRouter>> {
  const { store, bus, logger } = options;
  const runs = createRunsRepo(store);
  const deps: AgentsDeps = {
    store,
    bus,
    logger,
    runs,
    sessions: createSessionsRepo(store),
    steps: createStepsRepo(store),
    runEvents: createRunEventsRepo(store, runs),
    access: createAccessRepo(store),
    provider: options.provider,
    research: options.research,
    billing: options.billing,
    trends: options.trends,
    llm: options.llm ?? null,
    settings: options.settings,
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
