import { healthProcedure } from '@vrs/kit';
import type { MonitoringDeps } from '../../monitoring-deps';

/** Readiness: the monitor store answers. Upstream failures show per monitor (status backing_off). */
export const checkHealth = ({ monitors }: MonitoringDeps) => healthProcedure({ store: () => monitors.ping() });
