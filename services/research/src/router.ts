import { router } from '@vrs/kit';
import { createAnswer } from './procedures/answers/create';
import { createComparison } from './procedures/comparisons/create';
import { getComparison } from './procedures/comparisons/get';
import { addEvidence } from './procedures/evidence/add';
import { searchEvidence } from './procedures/evidence/search';
import { createExport } from './procedures/exports/create';
import { getExport } from './procedures/exports/get';
import { readExportChunk } from './procedures/exports/read-chunk';
import { checkHealth } from './procedures/health/check';
import { createImport } from './procedures/imports/create';
import { cancelJob } from './procedures/jobs/cancel';
import { getJob } from './procedures/jobs/get';
import { getOperation } from './procedures/operations/get';
import { createProject } from './procedures/projects/create';
import { getProject } from './procedures/projects/get';
import { listProjects } from './procedures/projects/list';
import { reindexProject } from './procedures/projects/reindex';
import { createReport } from './procedures/reports/create';
import type { ResearchDeps } from './research-deps';

/** Internal procedures of the research service; the gateway passes the authenticated accountId. */
export function createResearchRouter(deps: ResearchDeps) {
  return router({
    health: checkHealth(deps),
    projects: router({
      create: createProject(deps),
      list: listProjects(deps),
      get: getProject(deps),
      reindex: reindexProject(deps),
    }),
    evidence: router({
      add: addEvidence(deps),
      search: searchEvidence(deps),
    }),
    imports: router({ create: createImport(deps) }),
    jobs: router({ get: getJob(deps), cancel: cancelJob(deps) }),
    answers: router({ create: createAnswer(deps) }),
    reports: router({ create: createReport(deps) }),
    operations: router({ get: getOperation(deps) }),
    exports: router({ create: createExport(deps), get: getExport(deps), readChunk: readExportChunk(deps) }),
    comparisons: router({ create: createComparison(deps), get: getComparison(deps) }),
  });
}

export type ResearchRouter = ReturnType<typeof createResearchRouter>;
