// What a build of dist/ was made from, so `npm run build` (which `npm start` runs first) can skip
// esbuild when nothing it reads has changed (ADR 0065). Contents are compared, not times: a
// checkout, a copy or an editor's save that keeps a file's bytes keeps the build, and any change of
// bytes, however its time stamps read, rebuilds.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export const manifestName = 'build-inputs.json';

/** Files that steer how esbuild resolves and compiles a source beside them, present or not. */
const resolutionFiles = ['package.json', 'tsconfig.json'];

const digest = (bytes) => createHash('sha1').update(bytes).digest('hex');

/**
 * Each path (relative to root) with the SHA-1 of its bytes, or null where no file is. Synchronous
 * reads, one after another: for some 1,700 small files they took about half the time of promised
 * reads through the thread pool (`npm run build` with nothing changed: 0.26 against 0.40 s).
 */
export function fingerprint(root, paths) {
  const fingerprints = {};
  for (const path of paths) {
    let bytes;
    try {
      bytes = readFileSync(join(root, path));
    } catch {
      fingerprints[path] = null;
      continue;
    }
    fingerprints[path] = digest(bytes);
  }
  return fingerprints;
}

/**
 * The files a build read: its sources, and in every folder from each source up to the root the
 * files that steer resolution (a package's `exports`, a tsconfig), recorded absent too, so one
 * added later counts as a change. `package-lock.json` stands for the installed dependencies, and
 * `tsconfig.base.json` is what every package's tsconfig extends.
 */
export function readFiles(sourcePaths) {
  const files = new Set(['package-lock.json', 'tsconfig.base.json', ...sourcePaths]);
  for (const source of sourcePaths) {
    for (let dir = dirname(source); ; dir = dirname(dir)) {
      for (const name of resolutionFiles) files.add(dir === '.' ? name : `${dir}/${name}`);
      if (dir === '.') break;
    }
  }
  return [...files].sort();
}

/** Writes the manifest of a finished build: its settings, what it read and what it wrote. */
export async function writeManifest(root, outdir, { settings, inputs, outputs }) {
  const manifest = {
    settings,
    inputs: fingerprint(root, inputs),
    outputs: fingerprint(outdir, outputs),
  };
  const path = join(outdir, manifestName);
  const partial = `${path}.${process.pid}.partial`;
  await writeFile(partial, `${JSON.stringify(manifest, null, 1)}\n`);
  await rename(partial, path);
}

/**
 * Whether dist/ holds what a build with these settings would write now: the manifest's settings
 * are these, every input reads as it did, and every output is still the file that build wrote.
 * Returns the number of inputs checked, or false.
 */
export async function upToDate(root, outdir, settings) {
  const manifest = await readFile(join(outdir, manifestName), 'utf8').then(JSON.parse, () => undefined);
  if (!manifest || JSON.stringify(manifest.settings) !== JSON.stringify(settings)) return false;
  const inputs = fingerprint(root, Object.keys(manifest.inputs));
  const outputs = fingerprint(outdir, Object.keys(manifest.outputs));
  const same = (recorded, now) => Object.entries(recorded).every(([path, hash]) => now[path] === hash);
  if (!same(manifest.inputs, inputs) || !same(manifest.outputs, outputs)) return false;
  return Object.keys(inputs).length;
}
