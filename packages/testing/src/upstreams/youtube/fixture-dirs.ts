import { existsSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '@vrs/kit';

/** The shared recordings (not ours) and the project's own fixtures, as tests use them. */
export const recordedDir = path.resolve(repoRoot, '../shared/fixtures/youtube-recorded');
export const syntheticDir = path.resolve(repoRoot, '../shared/fixtures/youtube-synthetic');
export const projectDir = path.resolve(repoRoot, 'packages/testing/fixtures/youtube');

export const hasRecorded = existsSync(recordedDir);
export const hasSynthetic = existsSync(syntheticDir);

/** Tests over the shared recordings skip only when the folder is absent, and say why. */
export function reportMissingShared(suite: string): void {
  if (!hasRecorded) console.warn(`[${suite}] skipping recorded-upstream tests: ${recordedDir} is absent`);
  if (!hasSynthetic) console.warn(`[${suite}] skipping caption tests: ${syntheticDir} is absent`);
}
