import { channelSchema, getChannelInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { meteredErrors } from '../errors';
import { charged, readMode, savedReadMeta } from '../providers/provider-params';

export const getChannel = protectedOperation({
  method: 'GET',
  path: '/providers/{provider}/channels/{id}',
  operationId: 'getChannel',
  tags: ['Channels'],
  summary: 'Inspect a channel',
  description:
    'Title, handle, description, subscriber and video counts, thumbnails and recent uploads. 404 `CHANNEL_NOT_FOUND` for unknown or removed channels.',
  errorResponses: [...meteredErrors, 404, 422],
})
  .meta(savedReadMeta)
  .input(getChannelInput)
  .output(channelSchema)
  .query(async ({ ctx, input }) =>
    charged(ctx, await ctx.services.provider.channels.get.query({ channel: input.id, ...readMode(ctx, input) })),
  );
