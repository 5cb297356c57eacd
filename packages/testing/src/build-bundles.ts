import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '@vrs/kit';

const run = promisify(execFile);
let building: Promise<void> | undefined;

/**
 * Runs `npm run build` (turbo's cached `//#bundle` task) once per process, so bundles started
 * afterwards run the source as it is now, and a later `npm start` finds the build in turbo's cache.
 * scripts/build.mjs leaves unchanged files alone, and turbo leaves dist/ alone when it matches its
 * cache, so bundles already running are safe.
 */
export function buildBundles(): Promise<void> {
  building ??= run(join(repoRoot, 'node_modules/.bin/turbo'), ['run', '//#bundle', '--output-logs=errors-only'], { cwd: repoRoot }).then(
    () => undefined,
  );
  return building;
}
