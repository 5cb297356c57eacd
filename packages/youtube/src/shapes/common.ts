import { z } from 'zod';

export const thumbnailSchema = z.object({ url: z.string(), width: z.number().int(), height: z.number().int() });
export type Thumbnail = z.infer<typeof thumbnailSchema>;

export const channelRefSchema = z.object({ id: z.string(), name: z.string(), url: z.string() });
export type ChannelRef = z.infer<typeof channelRefSchema>;

/** What an operation could not get; the service folds these into the response's `meta`. */
export const warningsSchema = z.array(z.string());
