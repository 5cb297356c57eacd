import { listOperationsInputSchema, type AnswerOperation, type ListPage } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import { mapPage } from '@vrs/store';
import type { ResearchDeps } from '../../research-deps';
import { toAnswerOperation } from '../../repo/operations-repo';

/** The caller's answers and reports, newest first; the gateway merges them with trends' plans (ADR 0020). */
export const listOperations = ({ operations }: ResearchDeps) =>
  procedure.input(listOperationsInputSchema).query(async ({ input: { accountId, ...page } }): Promise<ListPage<AnswerOperation>> => {
    return mapPage(await operations.pageOwned(accountId, page), toAnswerOperation);
  });
