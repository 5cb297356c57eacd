import { z } from 'zod';
import { videoSchema as publicVideoSchema } from '@vrs/contracts';
import { warningsSchema } from './common';

export { captionKindSchema, captionTrackSchema, type CaptionTrack } from '@vrs/contracts';

/** The public video without its `meta`, which the provider computes; what could not be read instead. */
export const videoSchema = publicVideoSchema.omit({ meta: true }).extend({ partial: z.boolean(), warnings: warningsSchema });
export type Video = z.infer<typeof videoSchema>;

/** Kept by the provider beside the public shape: caption URLs are signed and expire. */
export const videoInternalSchema = z.object({
  captionBaseUrls: z.record(z.string(), z.string()),
  translationLanguages: z.array(z.object({ languageCode: z.string(), name: z.string() })),
});

export const videoRecordSchema = videoSchema.extend({ internal: videoInternalSchema });
export type VideoRecord = z.infer<typeof videoRecordSchema>;
