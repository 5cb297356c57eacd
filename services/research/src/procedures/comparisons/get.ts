import { comparisonRefInputSchema, type Comparison } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { ResearchDeps } from '../../research-deps';
import { toComparison } from '../../repo/comparisons-repo';

export const getComparison = ({ comparisons }: ResearchDeps) =>
  procedure.input(comparisonRefInputSchema).query(async ({ input }): Promise<Comparison> => {
    const doc = await comparisons.findOwned(input.accountId, input.comparisonId);
    if (!doc) throw new AppError('COMPARISON_NOT_FOUND');
    return toComparison(doc);
  });
