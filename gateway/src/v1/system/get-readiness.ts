import { z } from 'zod';
import { AppError } from '@vrs/kit';
import { publicProcedure } from '../../trpc';

const dependencyStatusSchema = z.object({ ok: z.boolean(), latencyMs: z.number(), detail: z.string().optional() });
const readinessSchema = z
  .object({ status: z.literal('ready'), dependencies: z.record(z.string(), dependencyStatusSchema) })
  .meta({ id: 'Readiness' });

export const getReadiness = publicProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/health/ready',
      operationId: 'getReadiness',
      tags: ['System'],
      summary: 'Readiness probe',
      description:
        "Checks every dependency (event bus, services and their stores, rate-limit store). 503 with each dependency's status in `error.details.dependencies` when one is down.",
      protect: false,
      errorResponses: [429, 500, 503],
    },
    auth: 'public',
  })
  .input(z.object({}))
  .output(readinessSchema)
  .query(async ({ ctx }) => {
    const report = await ctx.readiness();
    if (!report.ok) throw new AppError('SERVICE_UNAVAILABLE', 'A dependency is not ready.', { dependencies: report.dependencies });
    return { status: 'ready' as const, dependencies: report.dependencies };
  });
