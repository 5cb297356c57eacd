import type { ChangedItem, MonitorQuery, NotificationKind } from '@vrs/contracts';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
const titles = (items: ChangedItem[]) => items.map((item) => `- ${item.title} (${item.url})`).join('\n');
const comments = (items: ChangedItem[]) => items.map((item) => `- ${item.author}: ${item.text} (${item.url})`).join('\n');
const ofType = (items: ChangedItem[], type: ChangedItem['type']) => items.filter((item) => item.type === type);

/**
 * The notification a check's changes make: its kind, a title a person scans, a body with the links.
 * A check makes one notification; a channel's uploads and a video's jump name its kind, and what else
 * the check found joins it.
 */
export function describeChanges(query: MonitorQuery, changes: ChangedItem[]): { kind: NotificationKind; title: string; body: string } {
  switch (query.kind) {
    case 'search':
      return { kind: 'new_videos', title: `${plural(changes.length, 'new video')} for "${query.q}"`, body: titles(changes) };
    case 'channel': {
      const uploads = ofType(changes, 'video');
      const playlists = ofType(changes, 'playlist');
      const found = [
        ...(uploads.length > 0 ? [plural(uploads.length, 'new upload')] : []),
        ...(playlists.length > 0 ? [plural(playlists.length, 'new playlist')] : []),
      ];
      return {
        kind: uploads.length > 0 ? 'new_uploads' : 'new_playlists',
        title: `${found.join(' and ')} on channel ${query.id}`,
        body: [titles(uploads), titles(playlists)].filter(Boolean).join('\n'),
      };
    }
    case 'topic':
      return { kind: 'trend_videos', title: `${plural(changes.length, 'video')} breaking out on "${query.q}"`, body: titles(changes) };
    case 'video': {
      const [video] = ofType(changes, 'video');
      const newComments = ofType(changes, 'comment');
      if (!video)
        return {
          kind: 'new_comments',
          title: `${plural(newComments.length, 'new comment')} on video ${query.id}`,
          body: comments(newComments),
        };
      const jump = `Views ${video.previousViewCount} → ${video.viewCount}, comments ${video.previousCommentCount} → ${video.commentCount} (${video.url})`;
      return {
        kind: 'video_activity',
        title: `Activity jump on "${video.title}"${newComments.length > 0 ? ` and ${plural(newComments.length, 'new comment')}` : ''}`,
        body: [jump, comments(newComments)].filter(Boolean).join('\n'),
      };
    }
  }
}
