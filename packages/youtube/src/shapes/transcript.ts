import { z } from 'zod';
import { captionTrackSchema } from './video';
import { warningsSchema } from './common';

export const transcriptSegmentSchema = z.object({ startMs: z.number().int().min(0), endMs: z.number().int().min(0), text: z.string() });
export type TranscriptSegment = z.infer<typeof transcriptSegmentSchema>;

export const transcriptWordSchema = transcriptSegmentSchema.extend({
  /** Index into `segments`. */
  segment: z.number().int().min(0),
});
export type TranscriptWord = z.infer<typeof transcriptWordSchema>;

export const transcriptSchema = z.object({
  videoId: z.string(),
  track: captionTrackSchema.extend({
    /** Where the text comes from: a person, speech recognition, or YouTube's machine translation. */
    provenance: z.enum(['manual', 'asr', 'machine_translation']),
  }),
  translatedTo: z.object({ languageCode: z.string(), name: z.string() }).optional(),
  segments: z.array(transcriptSegmentSchema),
  /** Present only where the caption source has word timing; never invented. */
  words: z.array(transcriptWordSchema).optional(),
  text: z.string(),
  warnings: warningsSchema,
});
export type Transcript = z.infer<typeof transcriptSchema>;
