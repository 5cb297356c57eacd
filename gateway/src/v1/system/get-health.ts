import { getHealthInput } from '@vrs/contracts';
import { z } from 'zod';
import { publicProcedure } from '../../trpc';

const healthSchema = z.object({ status: z.literal('ok'), version: z.string() }).meta({ id: 'Health' });

export const getHealth = publicProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/health',
      operationId: 'getHealth',
      tags: ['System'],
      summary: 'Liveness probe',
      description: 'Answers 200 while the gateway process is up. Public: probes carry no credentials.',
      protect: false,
      errorResponses: [429, 500],
    },
    auth: 'public',
  })
  .input(getHealthInput)
  .output(healthSchema)
  .query(() => ({ status: 'ok' as const, version: '1.0.0' }));
