import { z } from 'zod';
import { listPage } from './lists';
import { answerOperationSchema } from './research';
import { planOperationSchema } from './trends';

/** What `GET /v1/operations/{id}` answers: any result we returned with an operationId, by its kind. */
export const operationSchema = z.discriminatedUnion('kind', [answerOperationSchema, planOperationSchema]).meta({ id: 'Operation' });
export type Operation = z.infer<typeof operationSchema>;
export const operationListSchema = listPage(operationSchema, 'OperationList');
