import { z } from 'zod';
import { AppError, procedure } from '@vrs/kit';
import type { MonitoringDeps } from '../../monitoring-deps';

/**
 * Test-only (MONITORING_CLOCK_CONTROL): runs one scheduler pass now and answers the ids of the checks
 * it ran, so a test that advanced the clock knows when the due checks are done.
 */
export const runDue = ({ scheduler, config }: MonitoringDeps) =>
  procedure.output(z.object({ checkIds: z.array(z.string()) })).mutation(async () => {
    if (!config.clockControl) throw new AppError('FORBIDDEN', 'Scheduler passes can be forced only in tests (MONITORING_CLOCK_CONTROL).');
    return { checkIds: await scheduler.runDue() };
  });
