import path from 'node:path';
import { repoRoot } from '@vrs/kit';

export const defaultReplayDirs =
  '../shared/fixtures/youtube-recorded:../shared/fixtures/youtube-synthetic:packages/testing/fixtures/youtube';

/** Splits a `:`-separated list like PATH, dropping empty entries. */
export function parseReplayDirs(value: string | undefined = defaultReplayDirs): string[] {
  return value
    .split(':')
    .filter(Boolean)
    .map((dir) => path.resolve(repoRoot, dir));
}
