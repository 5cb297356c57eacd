import { healthProcedure } from '@vrs/kit';
import type { TrendsDeps } from '../../trends-deps';

/** Readiness: the snapshot store answers. The provider and the model are answered per request (503 / a warning). */
export const checkHealth = ({ snapshots }: TrendsDeps) => healthProcedure({ store: () => snapshots.ping() });
