// `npm run build`: each entry point bundled into dist/ as ESM, so production, `npm start` and the
// benchmarks run plain JavaScript instead of compiling TypeScript through tsx at run time (ADR 0043).
// Our workspace packages (@vrs/*) and youtubei.js are bundled; other third-party packages stay
// external, resolved from node_modules at run time. `npm run build` and `npm start` run it through
// turbo's cache (the `//#bundle` task), which skips it when no input changed; run alone, it always bundles.
import { build } from 'esbuild';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist');
const services = ['billing', 'research', 'provider', 'trends', 'monitoring', 'agents'];

const entryPoints = {
  gateway: 'gateway/src/main.ts',
  ...Object.fromEntries(services.map((service) => [service, `services/${service}/src/main.ts`])),
  // Beside the bundles, where `new URL('./search-worker.mjs', import.meta.url)` in them looks for it.
  'search-worker': 'packages/search/src/embedded/search-worker-main.ts',
};

/**
 * youtubei.js and the packages only it uses: loaded from node_modules they are about 700 ES modules,
 * which cost a process that reads YouTube 10–14 MB of RSS and half a second of start (ADR 0064).
 */
const bundledThirdParty = /^(youtubei\.js|@bufbuild\/protobuf|meriyah|fflate)(\/|$)/;

/** Bare specifiers other than our own workspace packages and `bundledThirdParty` stay imports, resolved from node_modules. */
const thirdPartyExternal = {
  name: 'third-party-external',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, ({ path }) =>
      path.startsWith('@vrs/') || bundledThirdParty.test(path) ? undefined : { path, external: true },
    );
  },
};

const started = performance.now();
const result = await build({
  absWorkingDir: root,
  entryPoints,
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  // Code imported on demand (the MongoDB driver, the services an http-mode gateway does not host)
  // stays in chunks of its own, loaded only when imported, as it is when tsx runs the source. Chunks
  // sit in dist/ itself, so code relative to import.meta.url finds the same place from any file.
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  plugins: [thirdPartyExternal],
  logLevel: 'warning',
  write: false,
});

// A process may be running (or starting from) these files while another builds: unchanged files are
// left alone and changed ones replaced whole (rename), so no reader ever sees a half-written file.
await mkdir(outdir, { recursive: true });
const built = new Set();
let written = 0;
for (const file of result.outputFiles) {
  built.add(file.path);
  const current = await readFile(file.path).catch(() => undefined);
  if (current && Buffer.compare(current, file.contents) === 0) continue;
  const partial = `${file.path}.${process.pid}.partial`;
  await writeFile(partial, file.contents);
  await rename(partial, file.path);
  written++;
}
// Files of earlier builds (chunks of code since changed, entries since removed) must not linger.
for (const name of await readdir(outdir)) {
  const path = join(outdir, name);
  if (!built.has(path) && !name.endsWith('.partial')) await rm(path, { force: true });
}
console.log(
  `built ${Object.keys(entryPoints).length} entry points into dist/ (${written} of ${built.size} files changed) in ${Math.round(performance.now() - started)} ms`,
);
