import type { AnswerOperation } from '@vrs/contracts';
import type { OperationDoc } from '../../repo/operations-repo';

export function toAnswerOperation({ _id, accountId: _owner, ...operation }: OperationDoc): AnswerOperation {
  return { id: _id, ...operation };
}
