import type { Meta } from '@vrs/contracts';
import type { VersionDoc } from '../repo/versions-repo';

/** `fetchedAt` names the version that answered; `partial` says the result may be incomplete. */
export function metaOf(version: VersionDoc, warnings: string[], partial: boolean): Meta {
  return { provider: 'youtube', source: 'video-research-service', fetchedAt: version.fetchedAt, partial, warnings };
}

/** For resources whose adapter warns only about things it could not get: any warning makes it partial. */
export function metaFromWarnings(version: VersionDoc, warnings: string[]): Meta {
  return metaOf(version, warnings, warnings.length > 0);
}
