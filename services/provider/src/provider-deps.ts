import type { YouTubeClient, YouTubeClientOptions } from '@vrs/youtube';
import type { VersionsRepo } from './repo/versions-repo';
import type { VersionedReads } from './versions/versioned-reads';

export interface ProviderModuleConfig {
  /** One client per module: its circuit breaker and concurrency bound are per process. */
  youtube: YouTubeClientOptions;
  /** Versions kept per resource (kind and key); older ones are deleted as new ones are saved. 10 when absent. */
  versionsKept?: number;
}

/** What every provider procedure is built with. */
export interface ProviderDeps {
  youtube: YouTubeClient;
  /** Whether YouTube is reached through an egress proxy (storyboard diagnostics say so). */
  egress: 'direct' | 'proxy';
  versions: VersionsRepo;
  reads: VersionedReads;
}
