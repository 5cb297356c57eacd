import { z } from 'zod';
import { captionTrackSchema } from '@vrs/contracts';
import { channelRefSchema, thumbnailSchema, warningsSchema } from './common';

export { captionKindSchema, captionTrackSchema, type CaptionTrack } from '@vrs/contracts';

export const videoSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  channel: channelRefSchema,
  thumbnails: z.array(thumbnailSchema),
  durationSeconds: z.number().int().min(0),
  /** ISO 8601 as YouTube gives it (with offset); null when no source carried it. */
  publishDate: z.string().nullable(),
  viewCount: z.number().int().min(0).nullable(),
  likeCount: z.number().int().min(0).nullable(),
  commentCount: z.number().int().min(0).nullable(),
  keywords: z.array(z.string()),
  hashtags: z.array(z.string()),
  isLive: z.boolean(),
  isUpcoming: z.boolean(),
  hasCaptions: z.boolean(),
  captionTracks: z.array(captionTrackSchema),
  partial: z.boolean(),
  warnings: warningsSchema,
});
export type Video = z.infer<typeof videoSchema>;

/** Kept by the provider beside the public shape: caption URLs are signed and expire. */
export const videoInternalSchema = z.object({
  captionBaseUrls: z.record(z.string(), z.string()),
  translationLanguages: z.array(z.object({ languageCode: z.string(), name: z.string() })),
});

export const videoRecordSchema = videoSchema.extend({ internal: videoInternalSchema });
export type VideoRecord = z.infer<typeof videoRecordSchema>;
