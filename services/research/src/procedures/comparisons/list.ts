import { listComparisonsInputSchema, type Comparison, type ListPage } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import { mapPage } from '@vrs/store';
import type { ResearchDeps } from '../../research-deps';
import { toComparison } from '../../repo/comparisons-repo';

/** The caller's comparisons, newest first (ADR 0020). */
export const listComparisons = ({ comparisons }: ResearchDeps) =>
  procedure.input(listComparisonsInputSchema).query(async ({ input: { accountId, ...page } }): Promise<ListPage<Comparison>> => {
    return mapPage(await comparisons.pageOwned(accountId, page), toComparison);
  });
