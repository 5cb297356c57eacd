import { z } from 'zod';
import { thumbnailSchema, warningsSchema } from './common';
import { searchVideoSchema } from './search';

export const channelSchema = z.object({
  id: z.string(),
  title: z.string(),
  handle: z.string().nullable(),
  description: z.string(),
  url: z.string(),
  /** Rounded as YouTube shows it ("218K subscribers"); null when hidden. */
  subscriberCount: z.number().int().min(0).nullable(),
  videoCount: z.number().int().min(0).nullable(),
  thumbnails: z.array(thumbnailSchema),
  recentUploads: z.array(searchVideoSchema),
  warnings: warningsSchema,
});
export type Channel = z.infer<typeof channelSchema>;
