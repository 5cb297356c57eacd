import type { FieldCodes } from '../../errors/to-app-error';

/** Body fields with codes of their own (ADR 0027); other failures are VALIDATION_FAILED with the field path. */
export const monitorFieldCodes: FieldCodes = {
  query: { missing: 'MONITOR_QUERY_REQUIRED' },
  intervalMinutes: { invalid: 'MONITOR_INTERVAL_INVALID' },
};
