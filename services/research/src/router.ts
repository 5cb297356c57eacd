import { router } from '@vrs/kit';
import { addEvidence } from './procedures/evidence/add';
import { searchEvidence } from './procedures/evidence/search';
import { checkHealth } from './procedures/health/check';
import { createProject } from './procedures/projects/create';
import { getProject } from './procedures/projects/get';
import { listProjects } from './procedures/projects/list';
import type { ResearchDeps } from './research-deps';

/** Internal procedures of the research service; the gateway passes the authenticated accountId. */
export function createResearchRouter(deps: ResearchDeps) {
  return router({
    health: checkHealth(deps),
    projects: router({
      create: createProject(deps),
      list: listProjects(deps),
      get: getProject(deps),
    }),
    evidence: router({
      add: addEvidence(deps),
      search: searchEvidence(deps),
    }),
  });
}

export type ResearchRouter = ReturnType<typeof createResearchRouter>;
