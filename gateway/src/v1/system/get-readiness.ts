import { getReadinessInput } from '@vrs/contracts';
import { z } from 'zod';
import { AppError } from '@vrs/kit';
import { publicOperation } from '../../trpc';

const dependencyStatusSchema = z.object({ ok: z.boolean(), latencyMs: z.number(), detail: z.string().optional() });
const readinessSchema = z
  .object({
    status: z.literal('ready'),
    dependencies: z
      .record(z.string(), dependencyStatusSchema)
      .optional()
      .describe('Each dependency with its latency: only for callers presenting the internal token (X-Internal-Token).'),
  })
  .meta({ id: 'Readiness' });

export const getReadiness = publicOperation({
  method: 'GET',
  path: '/health/ready',
  operationId: 'getReadiness',
  tags: ['System'],
  summary: 'Readiness probe',
  description:
    'Checks every dependency (event bus, services and their stores, rate-limit store): `{status: "ready"}`, or 503 `SERVICE_UNAVAILABLE` when one is down. Which dependencies exist and how they answer is for operators: only a caller presenting the internal token (`X-Internal-Token`) gets them, in `dependencies` and `error.details.dependencies`.',
  errorResponses: [429, 500, 503],
})
  .input(getReadinessInput)
  .output(readinessSchema)
  .query(async ({ ctx }) => {
    const report = await ctx.readiness();
    const details = ctx.internalCaller ? { dependencies: report.dependencies } : undefined;
    if (!report.ok) throw new AppError('SERVICE_UNAVAILABLE', 'A dependency is not ready.', details);
    return { status: 'ready' as const, ...details };
  });
