import { checkDependencies, procedure } from '@vrs/kit';
import type { ResearchDeps } from '../../research-deps';

/** Readiness of the service: its store answers. */
export const checkHealth = ({ store }: ResearchDeps) => procedure.query(() => checkDependencies({ store: () => store.ping() }));
