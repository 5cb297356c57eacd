import { operationRefInputSchema, type AnswerOperation } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { ResearchDeps } from '../../research-deps';
import { toAnswerOperation } from '../../repo/operations-repo';

/** A stored answer or report, as it was returned; another account's answers like an unknown one. */
export const getOperation = ({ operations }: ResearchDeps) =>
  procedure.input(operationRefInputSchema).query(async ({ input }): Promise<AnswerOperation> => {
    const doc = await operations.findOwned(input.accountId, input.operationId);
    if (!doc) throw new AppError('OPERATION_NOT_FOUND');
    return toAnswerOperation(doc);
  });
