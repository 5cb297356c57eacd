import type { YTNodes } from 'youtubei.js';
import type { Comment } from '../shapes/comments';
import { parseCount } from './numbers';
import { absoluteUrl } from './urls';

type CommentView = InstanceType<typeof YTNodes.CommentView>;

/**
 * What a comment shows, as read either from youtubei.js's CommentView or straight from the page's
 * JSON (ADR 0054): both readings end in `commentOf`, so they agree on every conversion.
 */
export interface CommentFields {
  id: string;
  text: string;
  authorId?: string;
  authorName?: string;
  /** Site-relative ("/@kurzgesagt") or absolute. */
  authorUrl?: string;
  isCreator: boolean;
  isVerified: boolean;
  likeCountText?: string;
  replyCountText?: string;
  publishedTime?: string;
  isPinned: boolean;
  isHearted: boolean;
}

export function commentOf(fields: CommentFields, parentId?: string): Comment {
  return {
    id: fields.id,
    text: fields.text,
    author: {
      id: fields.authorId ?? '',
      name: fields.authorName ?? '',
      url: absoluteUrl(fields.authorUrl),
      isCreator: fields.isCreator,
      isVerified: fields.isVerified,
    },
    likeCount: parseCount(fields.likeCountText) ?? 0,
    replyCount: parseCount(fields.replyCountText) ?? 0,
    publishedTimeText: fields.publishedTime ?? '',
    isPinned: fields.isPinned,
    isHearted: fields.isHearted,
    ...(parentId ? { parentId } : {}),
  };
}

export function normalizeComment(view: CommentView, parentId?: string): Comment {
  return commentOf(
    {
      id: view.comment_id,
      text: view.content?.toString() ?? '',
      authorId: view.author?.id,
      authorName: view.author?.name,
      authorUrl: view.author?.url,
      isCreator: Boolean(view.author_is_channel_owner),
      isVerified: Boolean(view.author?.is_verified || view.author?.is_verified_artist),
      likeCountText: view.like_count,
      replyCountText: view.reply_count,
      publishedTime: view.published_time,
      isPinned: Boolean(view.is_pinned),
      isHearted: Boolean(view.is_hearted),
    },
    parentId,
  );
}
