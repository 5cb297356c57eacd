import { z } from 'zod';
import { searchVideoSchema } from '@vrs/contracts';
import { warningsSchema } from './common';

export { searchVideoSchema, type SearchVideo } from '@vrs/contracts';

export const searchResultsSchema = z.object({
  query: z.string(),
  videos: z.array(searchVideoSchema),
  estimatedResults: z.number().int().min(0).optional(),
  continuation: z.string().optional(),
  warnings: warningsSchema,
});
export type SearchResults = z.infer<typeof searchResultsSchema>;
