import { getHealthInput } from '@vrs/contracts';
import { z } from 'zod';
import { publicOperation } from '../../trpc';

const healthSchema = z.object({ status: z.literal('ok'), version: z.string() }).meta({ id: 'Health' });

export const getHealth = publicOperation({
  method: 'GET',
  path: '/health',
  operationId: 'getHealth',
  tags: ['System'],
  summary: 'Liveness probe',
  description: 'Answers 200 while the gateway process is up. Public: probes carry no credentials.',
  errorResponses: [429, 500],
})
  .input(getHealthInput)
  .output(healthSchema)
  .query(() => ({ status: 'ok' as const, version: '1.0.0' }));
