import { researchEvidenceAdded } from '@vrs/contracts';
import type { EventBus, Subscription } from '@vrs/bus';
import type { Logger, ServiceModule } from '@vrs/kit';
import type { Store } from '@vrs/store';
import { createIndexEvidenceHandler } from './events/index-evidence';
import { createEvidenceRepo } from './repo/evidence-repo';
import { createProjectsRepo } from './repo/projects-repo';
import { createResearchRouter, type ResearchRouter } from './router';
import { createIndexCache } from './search/index-cache';

export interface ResearchModuleOptions {
  store: Store;
  bus: EventBus;
  logger: Logger;
  /** Projects whose search index one process keeps in memory (least recently searched dropped first). */
  searchCacheMaxProjects?: number;
}

/** Durable consumer shared by every replica: each `research.evidence.added` is indexed by one of them. */
const indexerConsumerName = 'research-indexer';

export async function createResearchModule(options: ResearchModuleOptions): Promise<ServiceModule<ResearchRouter>> {
  const { store, bus, logger } = options;
  const projects = createProjectsRepo(store);
  const evidence = createEvidenceRepo(store);
  const indexCache = createIndexCache(evidence, { maxProjects: options.searchCacheMaxProjects ?? 200 });
  const router = createResearchRouter({ store, bus, projects, evidence, indexCache });
  let indexer: Subscription | undefined;

  return {
    name: 'research',
    router,
    async start() {
      await Promise.all([projects.ensureIndexes(), evidence.ensureIndexes(), bus.ensureStreams(['research'])]);
      indexer = await bus.subscribe(
        indexerConsumerName,
        researchEvidenceAdded,
        createIndexEvidenceHandler({ projects, evidence, logger: logger.child({ component: indexerConsumerName }) }),
      );
    },
    async stop() {
      await indexer?.stop();
      indexer = undefined;
    },
  };
}
