import type { z } from 'zod';
import { videoSearchResultsSchema } from '@vrs/contracts';
import { warningsSchema } from './common';

export { searchVideoSchema, type SearchVideo } from '@vrs/contracts';

/** The public results without their `meta`, which the provider computes; what could not be read instead. */
export const searchResultsSchema = videoSearchResultsSchema.omit({ meta: true }).extend({ warnings: warningsSchema });
export type SearchResults = z.infer<typeof searchResultsSchema>;
