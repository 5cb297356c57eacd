import { router } from '@vrs/kit';
import { getChannel } from './procedures/channels/get';
import { listChannelPlaylists } from './procedures/channels/list-playlists';
import { collectNewestComments } from './procedures/comments/collect-newest';
import { getCommentsPage } from './procedures/comments/get-page';
import { checkHealth } from './procedures/health/check';
import { getPlaylist } from './procedures/playlists/get';
import { listProviders } from './procedures/providers/list';
import { getStoryboard } from './procedures/storyboards/get';
import { getTranscript } from './procedures/transcripts/get';
import { getVideo } from './procedures/videos/get';
import { searchVideos } from './procedures/videos/search';
import type { ProviderDeps } from './provider-deps';

/**
 * Internal procedures of the provider service. Reads answer `{result, cached}`: `cached` tells the
 * gateway a saved version answered, so the cached price applies.
 */
export function createProviderRouter(deps: ProviderDeps) {
  return router({
    health: checkHealth(deps),
    providers: router({ list: listProviders() }),
    videos: router({ get: getVideo(deps), search: searchVideos(deps) }),
    transcripts: router({ get: getTranscript(deps) }),
    comments: router({ getPage: getCommentsPage(deps), collectNewest: collectNewestComments(deps) }),
    channels: router({ get: getChannel(deps), listPlaylists: listChannelPlaylists(deps) }),
    playlists: router({ get: getPlaylist(deps) }),
    storyboards: router({ get: getStoryboard(deps) }),
  });
}

export type ProviderRouter = ReturnType<typeof createProviderRouter>;
