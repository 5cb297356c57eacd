import type { ChangedItem, MonitorQuery, PricedOperation } from '@vrs/contracts';
import type { MonitoringUpstreams } from '../monitoring-deps';

export const videoUrl = (id: string) => `https://www.youtube.com/watch?v=${id}`;

/** What one check read upstream, in the shape the comparison needs. */
export type Observation =
  | { kind: 'items'; items: ChangedItem[] }
  | { kind: 'video'; item: ChangedItem; viewCount: number; commentCount: number };

/** The operation a check calls: its price is what the check costs (ADR 0028). */
export function operationOf(query: MonitorQuery): PricedOperation {
  switch (query.kind) {
    case 'search':
      return 'searchVideos';
    case 'channel':
      return 'getChannel';
    case 'video':
      return 'getVideo';
    case 'topic':
      return 'getTopicTrends';
  }
}

/** A topic's videos worth telling about: in the Breakout band, or observed accelerating by half again. */
const acceleratingPercent = 50;

/**
 * Reads what the monitor watches from the service that owns it. `cached` is true when the provider
 * answered from a saved version (the cached price applies). Upstream failures throw the owning
 * service's typed error.
 */
export async function observe(query: MonitorQuery, upstreams: MonitoringUpstreams): Promise<{ observation: Observation; cached: boolean }> {
  switch (query.kind) {
    case 'search': {
      const { result } = await upstreams.provider.videos.search.query({ q: query.q, sort: 'upload_date' });
      const items = result.videos.map((video) => ({ type: 'video' as const, id: video.id, title: video.title, url: videoUrl(video.id) }));
      return { observation: { kind: 'items', items }, cached: false };
    }
    case 'channel': {
      const { result, cached } = await upstreams.provider.channels.get.query({ channel: query.id, refresh: true });
      const items = result.recentUploads.map((video) => ({
        type: 'video' as const,
        id: video.id,
        title: video.title,
        url: videoUrl(video.id),
      }));
      return { observation: { kind: 'items', items }, cached };
    }
    case 'video': {
      const { result, cached } = await upstreams.provider.videos.get.query({ videoId: query.id, refresh: true });
      const item: ChangedItem = { type: 'video', id: result.id, title: result.title, url: videoUrl(result.id) };
      return { observation: { kind: 'video', item, viewCount: result.viewCount ?? 0, commentCount: result.commentCount ?? 0 }, cached };
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
      return { observation: { kind: 'items', items }, cached: false };
    }
  }
}
