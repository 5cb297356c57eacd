import { healthProcedure } from '@vrs/kit';
import type { ProviderDeps } from '../../provider-deps';

/** Readiness of the service: its store answers. YouTube is left out: its outages are answered per request (503). */
export const checkHealth = ({ versions }: ProviderDeps) => healthProcedure({ store: () => versions.ping() });
