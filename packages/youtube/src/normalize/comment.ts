import type { YTNodes } from 'youtubei.js';
import type { Comment } from '../shapes/comments';
import { parseCount } from './numbers';
import { absoluteUrl } from './urls';

type CommentView = InstanceType<typeof YTNodes.CommentView>;

export function normalizeComment(view: CommentView, parentId?: string): Comment {
  return {
    id: view.comment_id,
    text: view.content?.toString() ?? '',
    author: {
      id: view.author?.id ?? '',
      name: view.author?.name ?? '',
      url: absoluteUrl(view.author?.url),
      isCreator: Boolean(view.author_is_channel_owner),
      isVerified: Boolean(view.author?.is_verified || view.author?.is_verified_artist),
    },
    likeCount: parseCount(view.like_count) ?? 0,
    replyCount: parseCount(view.reply_count) ?? 0,
    publishedTimeText: view.published_time ?? '',
    isPinned: Boolean(view.is_pinned),
    isHearted: Boolean(view.is_hearted),
    ...(parentId ? { parentId } : {}),
  };
}
