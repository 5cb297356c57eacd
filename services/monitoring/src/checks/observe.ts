import { commentExcerptLength, priceOf, type ChangedItem, type Comment, type MonitorQuery, type PricedOperation } from '@vrs/contracts';
import type { MonitoringUpstreams } from '../monitoring-deps';

export const videoUrl = (id: string) => `https://www.youtube.com/watch?v=${id}`;
/** Opens the video at the comment. */
export const commentUrl = (videoId: string, commentId: string) => `${videoUrl(videoId)}&lc=${commentId}`;

const videoItem = (video: { id: string; title: string }) => ({
  type: 'video' as const,
  id: video.id,
  title: video.title,
  url: videoUrl(video.id),
});

/** What one check read upstream, in the shape the comparison needs. */
export type Observation =
  | { kind: 'items'; items: ChangedItem[] }
  | { kind: 'channel'; uploads: ChangedItem[]; playlists: ChangedItem[] }
  | { kind: 'video'; item: ChangedItem; viewCount: number; commentCount: number; comments: ChangedItem[] };

/** The operations a check calls: it costs the sum of their prices (ADR 0028). */
export function readsOf(query: MonitorQuery): [PricedOperation, ...PricedOperation[]] {
  switch (query.kind) {
    case 'search':
      return ['searchVideos'];
    case 'channel':
      return ['getChannel', 'listChannelPlaylists'];
    case 'video':
      // The newest comments are one newest-first page (`sort: 'newest'`), priced as a page.
      return ['getVideo', 'getVideoComments'];
    case 'topic':
      return ['getTopicTrends'];
  }
}

/** What a check reserves: every read at its fresh price. */
export const checkPrice = (query: MonitorQuery) => readsOf(query).reduce((sum, operation) => sum + priceOf(operation, 'fresh'), 0);

/** What a check costs once read: each read at the price of how it was served (`cached`, in `readsOf` order). */
export const settledPrice = (query: MonitorQuery, cached: boolean[]) =>
  readsOf(query).reduce((sum, operation, index) => sum + priceOf(operation, cached[index] ? 'cached' : 'fresh'), 0);

const commentItem = (videoId: string, comment: Comment): ChangedItem => ({
  type: 'comment',
  id: comment.id,
  title: `Comment by ${comment.author.name}`,
  url: commentUrl(videoId, comment.id),
  author: comment.author.name,
  text: comment.text.length > commentExcerptLength ? `${comment.text.slice(0, commentExcerptLength - 1)}…` : comment.text,
});

/** A topic's videos worth telling about: in the Breakout band, or observed accelerating by half again. */
const acceleratingPercent = 50;

/**
 * Reads what the monitor watches from the services that own it; upstream failures throw the owning
 * service's typed error. `cached` says, per read of `readsOf`, whether it was answered from a saved version.
 */
export async function observe(
  query: MonitorQuery,
  upstreams: MonitoringUpstreams,
): Promise<{ observation: Observation; cached: boolean[] }> {
  switch (query.kind) {
    case 'search': {
      const { result } = await upstreams.provider.videos.search.query({ q: query.q, sort: 'upload_date' });
      return { observation: { kind: 'items', items: result.videos.map(videoItem) }, cached: [false] };
    }
    case 'channel': {
      // Both reads or none: a failed second read fails the check, so nothing half-read is compared.
      const [channel, playlists] = await Promise.all([
        upstreams.provider.channels.get.query({ channel: query.id, refresh: true }),
        upstreams.provider.channels.listPlaylists.query({ channel: query.id, sort: 'newest', refresh: true }),
      ]);
      const uploads = channel.result.recentUploads.map(videoItem);
      const lists = playlists.result.playlists.map((playlist) => ({
        type: 'playlist' as const,
        id: playlist.id,
        title: playlist.title,
        url: playlist.url,
      }));
      return { observation: { kind: 'channel', uploads, playlists: lists }, cached: [channel.cached, playlists.cached] };
    }
    case 'video': {
      const [video, comments] = await Promise.all([
        upstreams.provider.videos.get.query({ videoId: query.id, refresh: true }),
        upstreams.provider.comments.getPage.query({ videoId: query.id, sort: 'newest', refresh: true }),
      ]);
      const { result } = video;
      return {
        observation: {
          kind: 'video',
          item: videoItem(result),
          viewCount: result.viewCount ?? 0,
          commentCount: result.commentCount ?? 0,
          comments: comments.result.comments.map((comment) => commentItem(result.id, comment)),
        },
        cached: [video.cached, comments.cached],
      };
    }
    case 'topic': {
      const report = await upstreams.trends.reports.generate.mutate({
        q: query.q,
        ...(query.sampleSize === undefined ? {} : { sampleSize: query.sampleSize }),
        mode: 'deterministic',
      });
      const items = report.videos
        .filter((video) => video.trendBand === 'Breakout' || (video.accelerationPercent ?? 0) >= acceleratingPercent)
        .map((video) => ({ type: 'video' as const, id: video.id, title: video.title, url: video.url, trendBand: video.trendBand }));
      return { observation: { kind: 'items', items }, cached: [false] };
    }
  }
}
