import { getChannelInputSchema, providerChannelFetched, type Channel, type Served } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { ProviderDeps } from '../../provider-deps';
import { metaFromWarnings } from '../../versions/meta';
import { channelPart, versionKey } from '../../versions/keys';

/** Channel inspection by id or `@handle`: header facts and the uploads its Videos tab lists. */
export const getChannel = ({ reads, youtube }: ProviderDeps) =>
  procedure.input(getChannelInputSchema).query(async ({ input, ctx }): Promise<Served<Channel>> => {
    const { version, cached } = await reads.read({
      request: ctx,
      kind: 'channel',
      key: versionKey(channelPart(input.channel)),
      refresh: input.refresh,
      savedOnly: input.savedOnly,
      fetch: () => youtube.getChannel(input.channel),
      event: providerChannelFetched,
      eventData: (channel) => ({ channelId: channel.id }),
    });
    const { warnings, ...channel } = version.data;
    return { result: { ...channel, meta: metaFromWarnings(version, warnings) }, cached };
  });
