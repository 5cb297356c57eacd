import { z } from 'zod';
import { procedure } from './trpc';
import { withDeadline } from './deadline';

const dependencyStatusSchema = z.object({ ok: z.boolean(), latencyMs: z.number(), detail: z.string().optional() });
export const healthReportSchema = z.object({ ok: z.boolean(), dependencies: z.record(z.string(), dependencyStatusSchema) });
export type DependencyStatus = z.infer<typeof dependencyStatusSchema>;
export type HealthReport = z.infer<typeof healthReportSchema>;

/** Runs every check in parallel with a deadline; one failing or slow dependency makes the report not ok. */
export async function checkDependencies(checks: Record<string, () => Promise<unknown>>, timeoutMs = 2_000): Promise<HealthReport> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]): Promise<[string, DependencyStatus]> => {
      const started = performance.now();
      try {
        await withDeadline(check(), timeoutMs, `no answer within ${timeoutMs} ms`);
        return [name, { ok: true, latencyMs: Math.round(performance.now() - started) }];
      } catch (err) {
        return [name, { ok: false, latencyMs: Math.round(performance.now() - started), detail: (err as Error).message }];
      }
    }),
  );
  const dependencies = Object.fromEntries(entries);
  return { ok: entries.every(([, status]) => status.ok), dependencies };
}

/**
 * Every service's `health` query: its dependencies' status. It reports rather than throws, so a
 * readiness check can say which dependency is down.
 */
export function healthProcedure(checks: Record<string, () => Promise<unknown>>) {
  return procedure.output(healthReportSchema).query(() => checkDependencies(checks));
}
