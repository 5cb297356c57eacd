import { listComparisonsInputSchema, type Comparison, type ListPage } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import { mapPage } from '@vrs/store';
import type { z } from 'zod';
import type { ResearchDeps } from '../../research-deps';
import { toComparison } from '../../repo/comparisons-repo';

/** The caller's comparisons, newest first (ADR 0020). */
export async function listComparisonsHandler({
  ctx,
  input: { accountId, ...page },
}: {
  ctx: Pick<ResearchDeps, 'comparisons'>;
  input: z.infer<typeof listComparisonsInputSchema>;
}): Promise<ListPage<Comparison>> {
  return mapPage(await ctx.comparisons.pageOwned(accountId, page), toComparison);
}

export const listComparisons = (deps: ResearchDeps) =>
  procedure.input(listComparisonsInputSchema).query(({ input }) => listComparisonsHandler({ ctx: deps, input }));
