import type { YouTubeClient, YouTubeClientOptions } from '@vrs/youtube';
import type { VersionsRepo } from './repo/versions-repo';
import type { VersionedReads } from './versions/versioned-reads';

export interface ProviderModuleConfig {
  /** One client per module: its circuit breaker and concurrency bound are per process. */
  youtube: YouTubeClientOptions;
}

/** What every provider procedure is built with. */
export interface ProviderDeps {
  youtube: YouTubeClient;
  versions: VersionsRepo;
  reads: VersionedReads;
}
