import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '@vrs/kit';

const run = promisify(execFile);
let building: Promise<void> | undefined;

/**
 * Runs `npm run build` (scripts/build.mjs) once per process, so bundles started afterwards run the
 * source as it is now; the script leaves unchanged files alone, so bundles already running are safe.
 */
export function buildBundles(): Promise<void> {
  building ??= run(process.execPath, [join(repoRoot, 'scripts/build.mjs')], { cwd: repoRoot }).then(() => undefined);
  return building;
}
