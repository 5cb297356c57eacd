import { z } from 'zod';
import { setMonitoringClockInputSchema } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { MonitoringDeps } from '../../monitoring-deps';

/**
 * Test-only (MONITORING_CLOCK_CONTROL, refused in production): fixes the clock schedules are computed
 * with (or lets it follow real time again), so tests advance time instead of sleeping.
 */
export const setClock = ({ clock, config }: MonitoringDeps) =>
  procedure
    .input(setMonitoringClockInputSchema)
    .output(z.object({ now: z.number().int() }))
    .mutation(({ input }) => {
      if (!config.clockControl)
        throw new AppError('FORBIDDEN', 'The monitoring clock can be moved only in tests (MONITORING_CLOCK_CONTROL).');
      clock.set(input.now === null ? null : new Date(input.now));
      return { now: clock.now().getTime() };
    });
