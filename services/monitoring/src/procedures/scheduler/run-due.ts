import { z } from 'zod';
import { AppError, procedure } from '@vrs/kit';
import type { MonitoringDeps } from '../../monitoring-deps';

/**
 * Test-only: runs one scheduler pass now (after any pass in flight) and answers the ids of the
 * checks it ran, so a test that advanced the clock knows when the due checks are done. Refused
 * unless MONITORING_CLOCK_CONTROL is on.
 */
export const runDue = ({ scheduler, config }: MonitoringDeps) =>
  procedure.output(z.object({ checkIds: z.array(z.string()) })).mutation(async () => {
    if (!config.clockControl) throw new AppError('FORBIDDEN', 'Scheduler passes can be forced only in tests (MONITORING_CLOCK_CONTROL).');
    return { checkIds: await scheduler.runDue() };
  });
