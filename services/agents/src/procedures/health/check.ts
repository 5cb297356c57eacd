import { busHealthCheck } from '@vrs/bus';
import { healthProcedure } from '@vrs/kit';
import type { AgentsDeps } from '../../agents-deps';

/** Readiness of the service: its store answers, and the bus that feeds its executor is up. */
export const checkHealth = ({ store, bus }: AgentsDeps) => healthProcedure({ store: () => store.ping(), bus: busHealthCheck(bus) });
