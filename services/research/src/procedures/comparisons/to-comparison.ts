import type { Comparison } from '@vrs/contracts';
import type { ComparisonDoc } from '../../repo/comparisons-repo';

export function toComparison({ _id, accountId: _owner, ...comparison }: ComparisonDoc): Comparison {
  return { id: _id, ...comparison };
}
