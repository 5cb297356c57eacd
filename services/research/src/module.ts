import { componentLogger, readCountsByStatus } from '@vrs/kit';
import { billingAccountDeleted, researchEvidenceAdded, researchExportRequested, researchImportRequested } from '@vrs/contracts';
import type { Llm } from '@vrs/ai';
import { createOutboxRelay, type EventBus, type Subscription } from '@vrs/bus';
import type { Logger, ServiceModule } from '@vrs/kit';
import type { SearchIndex } from '@vrs/search';
import { createRetentionSweeper, type Store } from '@vrs/store';
import { createDeleteAccountDataHandler } from './events/delete-account-data';
import { createIndexEvidenceHandler } from './events/index-evidence';
import { createRunImportJobHandler } from './events/run-import-job';
import { createWriteExportHandler } from './events/write-export';
import type { BillingClient } from './billing-client';
import { defaultResearchImports, defaultResearchRetention, type ResearchImportConfig, type ResearchRetentionConfig } from './config';
import type { ProviderClient } from './provider-client';
import { createComparisonsRepo } from './repo/comparisons-repo';
import { createEvidenceRepo } from './repo/evidence-repo';
import { createExportsRepo } from './repo/exports-repo';
import { createIdempotencyRepo } from './repo/idempotency-repo';
import { activeJobStatuses, createJobsRepo } from './repo/jobs-repo';
import { createOperationsRepo } from './repo/operations-repo';
import { createProjectsRepo } from './repo/projects-repo';
import { createResearchRouter, type ResearchRouter } from './router';
import { createEvidenceSearch } from './search/evidence-search';

export interface ResearchModuleOptions {
  store: Store;
  bus: EventBus;
  logger: Logger;
  /** Where imports read videos, transcripts, comments, playlists, channels and searches. */
  provider: ProviderClient;
  /** Where a job settles the credits the gateway held for it. */
  billing: BillingClient;
  /** Writes answers, reports and comparison summaries; null = none configured (extractive answers). */
  llm: Llm | null;
  /** The search engine holding project indexes (`openSearch`); opened and closed by the caller, like the store. */
  search: SearchIndex;
  /** Bytes of recent result pages kept (ADR 0042); 8 MiB unless given, 0 for none. */
  resultCacheBytes?: number;
  /** How long records are kept and how often expired ones are deleted; defaults are the documented ones. */
  retention?: ResearchRetentionConfig;
  /** Import jobs run at once by this replica, and videos at once per job; defaults are the documented ones. */
  imports?: ResearchImportConfig;
  /** Milliseconds since the epoch; tests inject one to move time. */
  clock?: () => number;
  /** Pause before the outbox relay tries a failed publish again; 1 s unless given. */
  outboxRetryDelayMs?: number;
}

/** Durable consumer shared by every replica: each `research.evidence.added` is indexed by one of them. */
const indexerConsumerName = 'research-indexer';
/** Durable consumer of `research.import.requested`: one replica runs each job; an unacked job is redelivered after a crash. */
const importerConsumerName = 'research-importer';
/** Durable consumer of `research.export.requested`: writes each export's file once. */
const exporterConsumerName = 'research-exporter';
/** Durable consumer of `billing.account.deleted`: removes what a deleted account owns here (ADR 0033). */
const accountDeletionConsumerName = 'research-account-deletion';

export async function createResearchModule(options: ResearchModuleOptions): Promise<ServiceModule<ResearchRouter>> {
  const { store, bus, logger, provider, billing, llm, retention = defaultResearchRetention, clock = Date.now } = options;
  const imports = options.imports ?? defaultResearchImports;
  const projects = createProjectsRepo(store);
  const evidence = createEvidenceRepo(store);
  const search = createEvidenceSearch(evidence, options.search, { resultCacheBytes: options.resultCacheBytes });
  const jobs = createJobsRepo(store);
  const idempotency = createIdempotencyRepo(store, { ttlMs: retention.idempotencyTtlMs, clock });
  const operations = createOperationsRepo(store);
  const exports = createExportsRepo(store, { fileTtlMs: retention.exportTtlMs, clock });
  const comparisons = createComparisonsRepo(store);
  const outbox = createOutboxRelay({
    store,
    bus,
    definitions: [researchImportRequested, researchExportRequested, researchEvidenceAdded],
    logger: componentLogger(logger, 'research-outbox'),
    retryDelayMs: options.outboxRetryDelayMs,
    sentTtlMs: retention.outboxSentTtlMs,
    clock,
  });
  const router = createResearchRouter({
    store,
    bus,
    outbox,
    projects,
    evidence,
    search,
    jobs,
    idempotency,
    provider,
    billing,
    operations,
    exports,
    comparisons,
    llm,
  });
  const sweeper = createRetentionSweeper({
    collections: { ...idempotency.expiring, ...exports.expiring, ...outbox.expiring },
    clock,
    intervalMs: retention.sweepIntervalMs,
    logger: componentLogger(logger, 'research-retention'),
  });
  let indexer: Subscription | undefined;
  let importer: Subscription | undefined;
  let exporter: Subscription | undefined;
  let accountDeletion: Subscription | undefined;
  let stopping = false;
  let stopMetrics = () => {};

  return {
    name: 'research',
    router,
    async start() {
      stopping = false;
      await Promise.all([
        projects.ensureIndexes(),
        evidence.ensureIndexes(),
        jobs.ensureIndexes(),
        operations.ensureIndexes(),
        exports.ensureIndexes(),
        comparisons.ensureIndexes(),
        idempotency.ensureIndexes(),
        bus.ensureStreams(['research']),
      ]);
      sweeper.start();
      stopMetrics = readCountsByStatus(
        { name: 'vrs_jobs', help: 'Research jobs (imports) not yet finished, by status.' },
        activeJobStatuses,
        jobs.countWithStatus,
      );
      // Publishes what was recorded before a crash or while NATS was away, then what each write records.
      await outbox.start();
      indexer = await bus.subscribe(
        indexerConsumerName,
        researchEvidenceAdded,
        createIndexEvidenceHandler({ projects, evidence, search, logger: componentLogger(logger, indexerConsumerName) }),
      );
      importer = await bus.subscribe(
        importerConsumerName,
        researchImportRequested,
        createRunImportJobHandler({
          jobs,
          projects,
          evidence,
          outbox,
          provider,
          billing: options.billing,
          logger: componentLogger(logger, importerConsumerName),
          stopping: () => stopping,
          videosAtOnce: imports.videosAtOnce,
        }),
        { concurrency: imports.jobsAtOnce },
      );
      exporter = await bus.subscribe(
        exporterConsumerName,
        researchExportRequested,
        createWriteExportHandler({
          exports,
          evidence,
          billing: options.billing,
          logger: componentLogger(logger, exporterConsumerName),
        }),
      );
      accountDeletion = await bus.subscribe(
        accountDeletionConsumerName,
        billingAccountDeleted,
        createDeleteAccountDataHandler({
          store,
          projects,
          evidence,
          search,
          jobs,
          exports,
          comparisons,
          operations,
          idempotency,
          logger: componentLogger(logger, accountDeletionConsumerName),
        }),
      );
    },
    async stop() {
      stopping = true;
      stopMetrics();
      await Promise.all([indexer?.stop(), importer?.stop(), exporter?.stop(), accountDeletion?.stop(), sweeper.stop(), outbox.stop()]);
      indexer = undefined;
      accountDeletion = undefined;
      importer = undefined;
      exporter = undefined;
    },
  };
}
