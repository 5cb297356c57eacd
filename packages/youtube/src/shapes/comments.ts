import { z } from 'zod';
import { warningsSchema } from './common';

export const commentSchema = z.object({
  id: z.string(),
  text: z.string(),
  author: z.object({ id: z.string(), name: z.string(), url: z.string().optional(), isCreator: z.boolean(), isVerified: z.boolean() }),
  /** YouTube shows rounded counts ("9.8K"); this is that rounded value. */
  likeCount: z.number().int().min(0),
  replyCount: z.number().int().min(0),
  publishedTimeText: z.string(),
  isPinned: z.boolean(),
  isHearted: z.boolean(),
  parentId: z.string().optional(),
});
export type Comment = z.infer<typeof commentSchema>;

export const commentsPageSchema = z.object({
  videoId: z.string(),
  comments: z.array(commentSchema),
  continuation: z.string().optional(),
  totalCount: z.number().int().min(0).optional(),
  warnings: warningsSchema,
});
export type CommentsPage = z.infer<typeof commentsPageSchema>;

export const newestCommentsSchema = z.object({
  videoId: z.string(),
  comments: z.array(commentSchema),
  complete: z.boolean(),
  pagesFetched: z.number().int().min(0),
  topLevelCount: z.number().int().min(0),
  replyCount: z.number().int().min(0),
  remainingContinuations: z.number().int().min(0),
  totalCount: z.number().int().min(0).optional(),
  partial: z.boolean(),
  warnings: warningsSchema,
});
export type NewestComments = z.infer<typeof newestCommentsSchema>;
