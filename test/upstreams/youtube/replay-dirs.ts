import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root; relative replay dirs are resolved against it, wherever the process runs. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export const defaultReplayDirs = '../shared/fixtures/youtube-recorded:../shared/fixtures/youtube-synthetic:test/fixtures/youtube';

/** Splits a `:`-separated list like PATH, dropping empty entries. */
export function parseReplayDirs(value: string | undefined = defaultReplayDirs): string[] {
  return value
    .split(':')
    .filter(Boolean)
    .map((dir) => path.resolve(repoRoot, dir));
}
