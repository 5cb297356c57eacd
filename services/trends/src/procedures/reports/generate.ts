import { generateTrendReportInputSchema, trendReportSchema } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import { buildTrendReport } from '../../report/build-report';
import type { TrendsDeps } from '../../trends-deps';

/** A trend report for a topic (methodology 3.0); a mutation because it saves metric snapshots. */
export const generateReport = (deps: TrendsDeps) =>
  procedure
    .input(generateTrendReportInputSchema)
    .output(trendReportSchema)
    .mutation(({ input }) => buildTrendReport(deps, input));
