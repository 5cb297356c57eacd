import type { Llm } from '@vrs/ai';
import type { EventBus } from '@vrs/bus';
import type { Logger } from '@vrs/kit';
import type { Store } from '@vrs/store';
import type { BillingClient, ProviderClient, ResearchClient, TrendsClient } from './clients';
import type { AgentsSettings } from './config';
import type { AccessRepo } from './repo/access-repo';
import type { RunEventsRepo } from './repo/run-events-repo';
import type { RunsRepo } from './repo/runs-repo';
import type { SessionsRepo } from './repo/sessions-repo';
import type { StepsRepo } from './repo/steps-repo';

/** What the procedures and the executor are built with; the module wires one set per service instance. */
export interface AgentsDeps {
  store: Store;
  bus: EventBus;
  logger: Logger;
  runs: RunsRepo;
  sessions: SessionsRepo;
  steps: StepsRepo;
  runEvents: RunEventsRepo;
  access: AccessRepo;
  provider: ProviderClient;
  research: ResearchClient;
  billing: BillingClient;
  trends: TrendsClient;
  /**
   * The model of the tool loop, the transcript analyst and storyboard frames; null (no LLM_BASE_URL)
   * runs the deterministic planner, which reads no storyboard (ADR 0026).
   */
  llm: Llm | null;
  settings: AgentsSettings;
  /** Injectable clock (wall-time budgets, timestamps). */
  now: () => number;
}
