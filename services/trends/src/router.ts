import { router } from '@vrs/kit';
import { setClock } from './procedures/clock/set';
import { checkHealth } from './procedures/health/check';
import { generatePlan } from './procedures/plans/generate';
import { getPlan } from './procedures/plans/get';
import { listPlans } from './procedures/plans/list';
import { generateReport } from './procedures/reports/generate';
import type { TrendsDeps } from './trends-deps';

/** Internal procedures of the trends service. */
export function createTrendsRouter(deps: TrendsDeps) {
  return router({
    health: checkHealth(deps),
    reports: router({ generate: generateReport(deps) }),
    plans: router({ generate: generatePlan(deps), get: getPlan(deps), list: listPlans(deps) }),
    clock: router({ set: setClock(deps) }),
  });
}

export type TrendsRouter = ReturnType<typeof createTrendsRouter>;
