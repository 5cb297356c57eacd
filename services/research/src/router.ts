import { router } from '@vrs/kit';
import { createAnswer } from './procedures/answers/create';
import { createComparison } from './procedures/comparisons/create';
import { getComparison } from './procedures/comparisons/get';
import { listComparisons } from './procedures/comparisons/list';
import { addEvidence } from './procedures/evidence/add';
import { deleteEvidence } from './procedures/evidence/delete';
import { getEvidence } from './procedures/evidence/get';
import { listEvidence } from './procedures/evidence/list';
import { updateEvidence } from './procedures/evidence/update';
import { searchEvidence } from './procedures/evidence/search';
import { createExport } from './procedures/exports/create';
import { getExport } from './procedures/exports/get';
import { listExports } from './procedures/exports/list';
import { readExportChunk } from './procedures/exports/read-chunk';
import { checkHealth } from './procedures/health/check';
import { createImport } from './procedures/imports/create';
import { cancelJob } from './procedures/jobs/cancel';
import { getJob } from './procedures/jobs/get';
import { listJobs } from './procedures/jobs/list';
import { getOperation } from './procedures/operations/get';
import { listOperations } from './procedures/operations/list';
import { createProject } from './procedures/projects/create';
import { deleteProject } from './procedures/projects/delete';
import { getProject } from './procedures/projects/get';
import { listProjects } from './procedures/projects/list';
import { reindexProject } from './procedures/projects/reindex';
import { renameProject } from './procedures/projects/rename';
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
      rename: renameProject(deps),
      delete: deleteProject(deps),
      reindex: reindexProject(deps),
    }),
    evidence: router({
      add: addEvidence(deps),
      search: searchEvidence(deps),
      list: listEvidence(deps),
      get: getEvidence(deps),
      update: updateEvidence(deps),
      delete: deleteEvidence(deps),
    }),
    imports: router({ create: createImport(deps) }),
    jobs: router({ get: getJob(deps), list: listJobs(deps), cancel: cancelJob(deps) }),
    answers: router({ create: createAnswer(deps) }),
    reports: router({ create: createReport(deps) }),
    operations: router({ get: getOperation(deps), list: listOperations(deps) }),
    exports: router({ create: createExport(deps), get: getExport(deps), list: listExports(deps), readChunk: readExportChunk(deps) }),
    comparisons: router({ create: createComparison(deps), get: getComparison(deps), list: listComparisons(deps) }),
  });
}

export type ResearchRouter = ReturnType<typeof createResearchRouter>;
