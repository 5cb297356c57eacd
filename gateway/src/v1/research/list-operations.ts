import type { z } from 'zod';
import { compareNewestFirst, encodeCursor, operationListSchema, type ListPage, type Operation, listOperationsInput } from '@vrs/contracts';
import type { GatewayContext } from '../../context';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

/**
 * Answers and reports live in research, plans in trends. Each pages its own from the same position
 * (the cursor names a point in time order, not an item of either), and the two pages are merged: the
 * newest `limit` of both are among the newest `limit` of each, so nothing is skipped or repeated.
 */
export async function listOperationsHandler({
  ctx,
  input,
}: {
  ctx: GatewayContext & { principal: { accountId: string } };
  input: z.infer<typeof listOperationsInput>;
}): Promise<ListPage<Operation>> {
  const ref = { accountId: ctx.principal.accountId, limit: input.limit, cursor: input.cursor };
  const [answers, plans] = await Promise.all([ctx.services.research.operations.list.query(ref), ctx.services.trends.plans.list.query(ref)]);
  const merged: Operation[] = [...answers.data, ...plans.data].sort(compareNewestFirst);
  const data = merged.slice(0, input.limit);
  const hasMore = merged.length > input.limit || answers.hasMore || plans.hasMore;
  const last = data.at(-1);
  return { data, hasMore, nextCursor: hasMore && last ? encodeCursor('operations', last) : null };
}

export const listOperations = protectedOperation({
  method: 'GET',
  path: '/operations',
  operationId: 'listOperations',
  tags: ['Research'],
  summary: "List the caller's answers, reports and video plans",
  description:
    'Everything `GET /v1/operations/{id}` reads, newest first, by `kind`. Page with `limit` and `cursor`: pass each page’s `nextCursor` as `cursor` while `hasMore` is true.',
  errorResponses: [...authenticatedErrors, 422],
})
  .input(listOperationsInput)
  .output(operationListSchema)
  .query(listOperationsHandler);
