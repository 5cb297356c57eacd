import { videoSchema, getVideoInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { meteredErrors, videoErrors } from '../errors';
import { charged, readMode, savedReadMeta } from '../providers/provider-params';

export const getVideo = protectedOperation({
  method: 'GET',
  path: '/providers/{provider}/videos/{id}',
  operationId: 'getVideo',
  tags: ['Videos'],
  summary: 'Video metadata',
  description:
    'Normalized metadata: title, description, channel, thumbnails, duration, publish date, view / like / comment counts, keywords, hashtags, live state and the caption tracks available. 404 `VIDEO_UNAVAILABLE` for invalid, unknown or removed videos. Restrictions answer their own codes with `details.reason` and YouTube’s words in `details.platformReason`: 403 `VIDEO_AGE_RESTRICTED`, `VIDEO_PRIVATE`, `VIDEO_MEMBERS_ONLY`, `VIDEO_PAID`, `VIDEO_RESTRICTED` (unnamed), 451 `VIDEO_REGION_BLOCKED`.',
  errorResponses: [...meteredErrors, ...videoErrors, 422],
})
  .meta(savedReadMeta)
  .input(getVideoInput)
  .output(videoSchema)
  .query(async ({ ctx, input }) =>
    charged(ctx, await ctx.services.provider.videos.get.query({ videoId: input.id, ...readMode(ctx, input) })),
  );
