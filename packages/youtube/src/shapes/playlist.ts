import { z } from 'zod';
import { channelPlaylistSortSchema, playlistSummarySchema, playlistVideoSchema } from '@vrs/contracts';
import { warningsSchema } from './common';

export { playlistSummarySchema, playlistVideoSchema, type PlaylistSummary, type PlaylistVideo } from '@vrs/contracts';

export const channelPlaylistsSchema = z.object({
  channelId: z.string(),
  sort: channelPlaylistSortSchema,
  playlists: z.array(playlistSummarySchema),
  continuation: z.string().optional(),
  warnings: warningsSchema,
});
export type ChannelPlaylists = z.infer<typeof channelPlaylistsSchema>;

export const playlistSchema = playlistSummarySchema.extend({
  videos: z.array(playlistVideoSchema),
  continuation: z.string().optional(),
  estimatedTotal: z.number().int().min(0),
  warnings: warningsSchema,
});
export type Playlist = z.infer<typeof playlistSchema>;
