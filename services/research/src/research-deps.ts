import type { EventBus } from '@vrs/bus';
import type { Store } from '@vrs/store';
import type { EvidenceRepo } from './repo/evidence-repo';
import type { ProjectsRepo } from './repo/projects-repo';
import type { IndexCache } from './search/index-cache';

/** What the procedures are built with; the module wires one set per service instance. */
export interface ResearchDeps {
  store: Store;
  bus: EventBus;
  projects: ProjectsRepo;
  evidence: EvidenceRepo;
  indexCache: IndexCache;
}
