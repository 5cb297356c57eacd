import { listExportsInputSchema, type Export, type ListPage } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import { mapPage } from '@vrs/store';
import type { ResearchDeps } from '../../research-deps';
import { requireOwnedProject } from '../projects/require-owned-project';
import { toExport } from './to-export';

/** The caller's exports, of one project when `projectId` is given (which must be theirs), newest first. */
export const listExports = ({ projects, exports }: ResearchDeps) =>
  procedure.input(listExportsInputSchema).query(async ({ input }): Promise<ListPage<Export>> => {
    const { accountId, projectId, ...page } = input;
    if (projectId !== undefined) await requireOwnedProject(projects, accountId, projectId);
    return mapPage(await exports.pageOwned(accountId, projectId, page), toExport);
  });
