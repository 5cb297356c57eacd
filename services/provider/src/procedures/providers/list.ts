import { maxNewestCommentsLimit, type ProviderList } from '@vrs/contracts';
import { procedure } from '@vrs/kit';

const providers: ProviderList = {
  providers: [
    {
      id: 'youtube',
      name: 'YouTube',
      capabilities: {
        video: true,
        transcript: { detail: ['text', 'segments', 'words'], formats: ['json', 'srt', 'vtt'], translation: true },
        comments: { page: true, newest: true, maxLimit: maxNewestCommentsLimit },
        channel: true,
        channelPlaylists: { sort: ['newest', 'last-video-added'] },
        playlist: true,
        search: true,
      },
    },
  ],
};

/** The supported platforms and what can be asked of each. */
export const listProviders = () => procedure.query((): ProviderList => providers);
