import { z } from 'zod';
import { providerParam, videoSchema } from '@vrs/contracts';
import { protectedProcedure } from '../../trpc';
import { meteredErrors } from '../errors';
import { charged, providerFieldCodes, refreshParam, videoIdParam, readMode, savedUnlessRefresh } from '../providers/provider-params';

export const getVideo = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/providers/{provider}/videos/{id}',
      operationId: 'getVideo',
      tags: ['Videos'],
      summary: 'Video metadata',
      description:
        'Normalized metadata: title, description, channel, thumbnails, duration, publish date, view / like / comment counts, keywords, hashtags, live state and the caption tracks available. 404 `VIDEO_UNAVAILABLE` for invalid, unknown or removed videos; 403 `VIDEO_RESTRICTED` (private, age, members-only, Premium, region) with `details.reason` and `details.platformReason`.',
      protect: true,
      errorResponses: [...meteredErrors, 404, 422],
    },
    auth: { scopes: ['data:read'] },
    fieldCodes: providerFieldCodes,
    savedVariant: savedUnlessRefresh,
  })
  .input(z.object({ provider: providerParam(), id: videoIdParam(), refresh: refreshParam() }))
  .output(videoSchema)
  .query(async ({ ctx, input }) =>
    charged(ctx, await ctx.services.provider.videos.get.query({ videoId: input.id, ...readMode(ctx, input) })),
  );
