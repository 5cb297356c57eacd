import { z } from 'zod';

/** The path of a run: both ids are the UUIDs admission returned. */
export const runPath = () =>
  z.strictObject({
    sessionId: z.uuid().describe('UUID returned by agent admission.'),
    runId: z.uuid().describe('UUID returned by agent admission.'),
  });
