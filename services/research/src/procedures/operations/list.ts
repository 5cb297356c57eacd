import { listOperationsInputSchema, type AnswerOperation, type ListPage } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import { mapPage } from '@vrs/store';
import type { z } from 'zod';
import type { ResearchDeps } from '../../research-deps';
import { toAnswerOperation } from '../../repo/operations-repo';

/** The caller's answers and reports, newest first; the gateway merges them with trends' plans (ADR 0020). */
export async function listOperationsHandler({
  ctx,
  input: { accountId, ...page },
}: {
  ctx: Pick<ResearchDeps, 'operations'>;
  input: z.infer<typeof listOperationsInputSchema>;
}): Promise<ListPage<AnswerOperation>> {
  return mapPage(await ctx.operations.pageOwned(accountId, page), toAnswerOperation);
}

export const listOperations = (deps: ResearchDeps) =>
  procedure.input(listOperationsInputSchema).query(({ input }) => listOperationsHandler({ ctx: deps, input }));
