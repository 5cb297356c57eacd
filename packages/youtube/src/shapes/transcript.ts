import { z } from 'zod';
import { languageSchema, transcriptSegmentSchema, transcriptTrackSchema, transcriptWordSchema } from '@vrs/contracts';
import { warningsSchema } from './common';

export { transcriptSegmentSchema, transcriptWordSchema, type TranscriptSegment, type TranscriptWord } from '@vrs/contracts';

export const transcriptSchema = z.object({
  videoId: z.string(),
  track: transcriptTrackSchema,
  translatedTo: languageSchema.optional(),
  segments: z.array(transcriptSegmentSchema),
  /** Present only where the caption source has word timing; never invented. */
  words: z.array(transcriptWordSchema).optional(),
  text: z.string(),
  warnings: warningsSchema,
});
export type Transcript = z.infer<typeof transcriptSchema>;
