import { busHealthCheck } from '@vrs/bus';
import { healthProcedure } from '@vrs/kit';
import type { ResearchDeps } from '../../research-deps';

/** Readiness of the service: its store answers, and the bus that feeds its indexer is up. */
export const checkHealth = ({ store, bus }: ResearchDeps) => healthProcedure({ store: () => store.ping(), bus: busHealthCheck(bus) });
