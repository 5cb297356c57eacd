import { z } from 'zod';
import { channelRefSchema, thumbnailSchema, warningsSchema } from './common';

export const playlistSummarySchema = z.object({
  type: z.literal('playlist'),
  id: z.string(),
  title: z.string(),
  thumbnails: z.array(thumbnailSchema),
  isPodcast: z.boolean(),
  url: z.string(),
  description: z.string().optional(),
  channel: z.object({ id: z.string().optional(), name: z.string().optional(), url: z.string().optional() }),
  videoCount: z.number().int().min(0),
  videoCountText: z.string(),
  updatedTimeText: z.string(),
  playUrl: z.string(),
});
export type PlaylistSummary = z.infer<typeof playlistSummarySchema>;

export const channelPlaylistsSchema = z.object({
  channelId: z.string(),
  sort: z.enum(['newest', 'last-video-added']),
  playlists: z.array(playlistSummarySchema),
  continuation: z.string().optional(),
  warnings: warningsSchema,
});
export type ChannelPlaylists = z.infer<typeof channelPlaylistsSchema>;

export const playlistVideoSchema = z.object({
  type: z.literal('video'),
  id: z.string(),
  title: z.string(),
  channel: channelRefSchema,
  thumbnails: z.array(thumbnailSchema),
  isLive: z.boolean(),
  url: z.string(),
  description: z.string(),
  durationSeconds: z.number().int().min(0),
  durationText: z.string(),
  publishedTimeText: z.string(),
  viewCount: z.number().int().min(0),
  viewCountText: z.string(),
  hasCaptions: z.boolean(),
});
export type PlaylistVideo = z.infer<typeof playlistVideoSchema>;

export const playlistSchema = playlistSummarySchema.extend({
  videos: z.array(playlistVideoSchema),
  continuation: z.string().optional(),
  estimatedTotal: z.number().int().min(0),
  warnings: warningsSchema,
});
export type Playlist = z.infer<typeof playlistSchema>;
