import { listExportsInputSchema, type Export, type ListPage } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import { mapPage } from '@vrs/store';
import type { z } from 'zod';
import type { ResearchDeps } from '../../research-deps';
import { requireOwnedProject } from '../projects/require-owned-project';
import { toExport } from './to-export';

/** The caller's exports, of one project when `projectId` is given (which must be theirs), newest first. */
export async function listExportsHandler({
  ctx,
  input,
}: {
  ctx: Pick<ResearchDeps, 'projects' | 'exports'>;
  input: z.infer<typeof listExportsInputSchema>;
}): Promise<ListPage<Export>> {
  const { accountId, projectId, ...page } = input;
  if (projectId !== undefined) await requireOwnedProject(ctx.projects, accountId, projectId);
  return mapPage(await ctx.exports.pageOwned(accountId, projectId, page), toExport);
}

export const listExports = (deps: ResearchDeps) =>
  procedure.input(listExportsInputSchema).query(({ input }) => listExportsHandler({ ctx: deps, input }));
