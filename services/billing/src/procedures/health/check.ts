import { checkDependencies, procedure } from '@vrs/kit';
import { z } from 'zod';
import type { BillingDeps } from '../../billing-deps';

const dependencyStatusSchema = z.object({ ok: z.boolean(), latencyMs: z.number(), detail: z.string().optional() });
const healthReportSchema = z.object({ ok: z.boolean(), dependencies: z.record(z.string(), dependencyStatusSchema) });

/** Reports rather than throws, so a readiness check can show which dependency is down. */
export function checkHealth({ repo }: BillingDeps) {
  return procedure.output(healthReportSchema).query(() => checkDependencies({ store: () => repo.ping() }));
}
