import { z } from 'zod';
import { commentSchema } from '@vrs/contracts';
import { warningsSchema } from './common';

export { commentSchema, type Comment } from '@vrs/contracts';

export const commentsPageSchema = z.object({
  videoId: z.string(),
  comments: z.array(commentSchema),
  continuation: z.string().optional(),
  totalCount: z.number().int().min(0).optional(),
  /** Set on a newest-first page when YouTube offers no newest-first order: newer comments may be missing. */
  partial: z.boolean().optional(),
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
