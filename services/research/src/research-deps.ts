import type { Llm } from '@vrs/ai';
import type { EventBus, OutboxRelay } from '@vrs/bus';
import type { Store } from '@vrs/store';
import type { BillingClient } from './billing-client';
import type { ProviderClient } from './provider-client';
import type { ComparisonsRepo } from './repo/comparisons-repo';
import type { EvidenceRepo } from './repo/evidence-repo';
import type { ExportsRepo } from './repo/exports-repo';
import type { IdempotencyRepo } from './repo/idempotency-repo';
import type { JobsRepo } from './repo/jobs-repo';
import type { OperationsRepo } from './repo/operations-repo';
import type { ProjectsRepo } from './repo/projects-repo';
import type { EvidenceSearch } from './search/evidence-search';

/** What the procedures are built with; the module wires one set per service instance. */
export interface ResearchDeps {
  store: Store;
  bus: EventBus;
  /** Publishes the events recorded in the `outbox` collection with the writes that cause them (ADR 0030). */
  outbox: OutboxRelay;
  projects: ProjectsRepo;
  evidence: EvidenceRepo;
  search: EvidenceSearch;
  jobs: JobsRepo;
  idempotency: IdempotencyRepo;
  provider: ProviderClient;
  /** Where unfinished work's held credits are settled or refunded. */
  billing: BillingClient;
  operations: OperationsRepo;
  exports: ExportsRepo;
  comparisons: ComparisonsRepo;
  /** Null when no model is configured: answers and reports are extractive. */
  llm: Llm | null;
}
