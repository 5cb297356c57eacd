import { z } from 'zod';

/* The health probes' inputs (issue 38): they take no parameter, so any one sent is UNKNOWN_PARAMETER. */

export const getHealthInput = z.strictObject({});
export const getReadinessInput = z.strictObject({});
