import type { z } from 'zod';
import { channelPlaylistsSchema as publicChannelPlaylistsSchema, playlistSchema as publicPlaylistSchema } from '@vrs/contracts';
import { warningsSchema } from './common';

export { playlistSummarySchema, playlistVideoSchema, type PlaylistSummary, type PlaylistVideo } from '@vrs/contracts';

/** The public shapes without their `meta`, which the provider computes; what could not be read instead. */
export const channelPlaylistsSchema = publicChannelPlaylistsSchema.omit({ meta: true }).extend({ warnings: warningsSchema });
export type ChannelPlaylists = z.infer<typeof channelPlaylistsSchema>;

export const playlistSchema = publicPlaylistSchema.omit({ meta: true }).extend({ warnings: warningsSchema });
export type Playlist = z.infer<typeof playlistSchema>;
