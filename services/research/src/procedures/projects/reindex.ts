import { procedure } from '@vrs/kit';
import { z } from 'zod';
import type { ResearchDeps } from '../../research-deps';
import { indexProjectEvidence } from '../../search/index-project-evidence';

export const reindexInputSchema = z.strictObject({
  /** One project; omitted: every project in the store. */
  projectId: z.string().min(1).max(128).optional(),
});

export interface ReindexResult {
  projects: { projectId: string; outcome: 'indexed' | 'no-project' | 'no-evidence'; evidence: number; indexVersion?: number }[];
}

/**
 * Operator procedure behind `npm run reindex`: marks all of a project's evidence under a new index
 * version, then rebuilds this process's index of it from the store (other replicas reload on their
 * next search). It repairs events that never reached an indexer and lost or damaged index files.
 */
export async function reindexProjects({
  ctx,
  input,
}: {
  ctx: Pick<ResearchDeps, 'projects' | 'evidence' | 'search'>;
  input: z.infer<typeof reindexInputSchema>;
}): Promise<ReindexResult> {
  const projectIds = input.projectId ? [input.projectId] : await ctx.projects.allIds();
  const results: ReindexResult['projects'] = [];
  for (const projectId of projectIds) {
    const outcome = await indexProjectEvidence(ctx, projectId, 'all');
    if (outcome.kind === 'indexed') {
      await ctx.search.rebuild(projectId, outcome.indexVersion);
      results.push({ projectId, outcome: 'indexed', evidence: outcome.marked, indexVersion: outcome.indexVersion });
    } else results.push({ projectId, outcome: outcome.kind === 'no-project' ? 'no-project' : 'no-evidence', evidence: 0 });
  }
  return { projects: results };
}

export const reindexProject = (deps: ResearchDeps) =>
  procedure.input(reindexInputSchema).mutation(({ input }) => reindexProjects({ ctx: deps, input }));
