import type { ChangedItem, MonitorQuery, NotificationKind } from '@vrs/contracts';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
const titles = (items: ChangedItem[]) => items.map((item) => `- ${item.title} (${item.url})`).join('\n');

/** The notification a check's changes make: its kind, a title a person scans, a body with the links. */
export function describeChanges(query: MonitorQuery, changes: ChangedItem[]): { kind: NotificationKind; title: string; body: string } {
  switch (query.kind) {
    case 'search':
      return { kind: 'new_videos', title: `${plural(changes.length, 'new video')} for "${query.q}"`, body: titles(changes) };
    case 'channel':
      return { kind: 'new_uploads', title: `${plural(changes.length, 'new upload')} on channel ${query.id}`, body: titles(changes) };
    case 'topic':
      return { kind: 'trend_videos', title: `${plural(changes.length, 'video')} breaking out on "${query.q}"`, body: titles(changes) };
    case 'video': {
      const [video] = changes as [ChangedItem];
      return {
        kind: 'video_activity',
        title: `Activity jump on "${video.title}"`,
        body: `Views ${video.previousViewCount} → ${video.viewCount}, comments ${video.previousCommentCount} → ${video.commentCount} (${video.url})`,
      };
    }
  }
}
