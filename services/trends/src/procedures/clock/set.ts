import { z } from 'zod';
import { setTrendsClockInputSchema } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { TrendsDeps } from '../../trends-deps';

/**
 * Test-only: fixes the reports' clock (or lets it follow real time again), so e2e tests get exact
 * ages and rates. Refused unless TRENDS_CLOCK_CONTROL is on, which config refuses in production.
 */
export const setClock = ({ clock, config }: TrendsDeps) =>
  procedure
    .input(setTrendsClockInputSchema)
    .output(z.object({ now: z.string() }))
    .mutation(({ input }) => {
      if (!config.clockControl) throw new AppError('FORBIDDEN', 'The trends clock can be moved only in tests (TRENDS_CLOCK_CONTROL).');
      clock.set(input.now === null ? null : new Date(input.now));
      return { now: clock.now().toISOString() };
    });
