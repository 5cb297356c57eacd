import { router } from '../trpc';
import { getHealth } from './system/get-health';
import { getReadiness } from './system/get-readiness';
import { createProject } from './projects/create-project';
import { listProjects } from './projects/list-projects';
import { getProject } from './projects/get-project';
import { addProjectEvidence } from './projects/add-project-evidence';
import { searchPrivateEvidence } from './projects/search-private-evidence';
import { getBillingStatus } from './billing/get-billing-status';
import { listLedgerEntries } from './billing/list-ledger-entries';

/**
 * The public REST facade. Each procedure lives in `v1/<tag>/<operation>.ts`; its meta holds the
 * path. Longer paths first: trpc-to-openapi matches case-insensitively and the first route wins.
 */
export const v1Router = router({
  system: router({ getReadiness, getHealth }),
  projects: router({ searchPrivateEvidence, addProjectEvidence, getProject, listProjects, createProject }),
  billing: router({ listLedgerEntries, getBillingStatus }),
});

export type V1Router = typeof v1Router;
