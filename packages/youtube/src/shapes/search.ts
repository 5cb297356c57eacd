import { z } from 'zod';
import { channelRefSchema, thumbnailSchema, warningsSchema } from './common';

export const searchVideoSchema = z.object({
  id: z.string(),
  title: z.string(),
  channel: channelRefSchema,
  viewCount: z.number().int().min(0).nullable(),
  publishedTimeText: z.string(),
  durationSeconds: z.number().int().min(0).nullable(),
  thumbnails: z.array(thumbnailSchema),
});
export type SearchVideo = z.infer<typeof searchVideoSchema>;

export const searchResultsSchema = z.object({
  query: z.string(),
  videos: z.array(searchVideoSchema),
  estimatedResults: z.number().int().min(0).optional(),
  continuation: z.string().optional(),
  warnings: warningsSchema,
});
export type SearchResults = z.infer<typeof searchResultsSchema>;
