import { generateTrendReportInputSchema, trendReportSchema } from '@vrs/contracts';
import { forRequest, procedure, requestLogFields } from '@vrs/kit';
import { buildTrendReport } from '../../report/build-report';
import type { TrendsDeps } from '../../trends-deps';

/** A trend report for a topic (methodology 3.0); a mutation because it saves metric snapshots. */
export const generateReport = (deps: TrendsDeps) =>
  procedure
    .input(generateTrendReportInputSchema)
    .output(trendReportSchema)
    .mutation(({ input, ctx }) =>
      // Its upstream reads, log lines and announcement carry the id of the request it serves.
      buildTrendReport({ ...deps, provider: forRequest(deps.provider, ctx), logger: deps.logger.child(requestLogFields(ctx)) }, input, ctx),
    );
