import { execFile } from 'node:child_process';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeEach, describe, expect, it } from 'vitest';
import { repoRoot } from '@vrs/kit';
import { buildBundles } from '@vrs/testing/build-bundles';
import { makeTempDir } from '@vrs/testing/temp-dir';
import { readFiles, upToDate, writeManifest } from '../../scripts/build-inputs.mjs';

// ADR 0065: `npm run build` skips esbuild when nothing it was built from has changed.
describe('what a build of dist/ was made from', () => {
  let root: string;
  let outdir: string;
  const settings = { esbuild: '1.0.0', 'scripts/build.mjs': 'abc' };
  const record = () => writeManifest(root, outdir, { settings, inputs: readFiles(['src/a.ts']), outputs: ['a.mjs'] });

  beforeEach(async () => {
    root = makeTempDir('build-inputs-');
    outdir = join(root, 'dist');
    await mkdir(join(root, 'src'));
    await mkdir(outdir);
    await writeFile(join(root, 'src/a.ts'), 'export const a = 1;');
    await writeFile(join(root, 'package-lock.json'), '{}');
    await writeFile(join(outdir, 'a.mjs'), 'export const a = 1;');
    await record();
  });

  it('lists the sources, the lock file, the base tsconfig, and the package and tsconfig files of every folder up to the root', () => {
    expect(readFiles(['src/a.ts'])).toEqual([
      'package-lock.json',
      'package.json',
      'src/a.ts',
      'src/package.json',
      'src/tsconfig.json',
      'tsconfig.base.json',
      'tsconfig.json',
    ]);
  });

  it('is up to date while every input and output reads as it did', async () => {
    expect(await upToDate(root, outdir, settings)).toBe(7);
  });

  it('is stale when a source changes its bytes', async () => {
    await writeFile(join(root, 'src/a.ts'), 'export const a = 2;');
    expect(await upToDate(root, outdir, settings)).toBe(false);
  });

  it('is stale when a file that steers resolution appears where there was none', async () => {
    await writeFile(join(root, 'src/package.json'), '{"type":"module"}');
    expect(await upToDate(root, outdir, settings)).toBe(false);
  });

  it('is stale when the installed dependencies change', async () => {
    await writeFile(join(root, 'package-lock.json'), '{"lockfileVersion":3}');
    expect(await upToDate(root, outdir, settings)).toBe(false);
  });

  it('is stale when an output was changed or removed', async () => {
    await writeFile(join(outdir, 'a.mjs'), 'export const a = 3;');
    expect(await upToDate(root, outdir, settings)).toBe(false);
    await rm(join(outdir, 'a.mjs'));
    expect(await upToDate(root, outdir, settings)).toBe(false);
  });

  it('is stale under other settings (esbuild, the build script) or without a manifest', async () => {
    expect(await upToDate(root, outdir, { ...settings, esbuild: '1.0.1' })).toBe(false);
    await rm(join(outdir, 'build-inputs.json'));
    expect(await upToDate(root, outdir, settings)).toBe(false);
  });
});

describe('npm run build, run again with nothing changed', () => {
  it('checks the inputs and writes nothing', async () => {
    await buildBundles();
    const before = await stat(join(repoRoot, 'dist/gateway.mjs'));
    const { stdout } = await promisify(execFile)(process.execPath, ['scripts/build.mjs'], { cwd: repoRoot });
    expect(stdout).toMatch(/^dist\/ is up to date: none of the \d+ files it was built from changed/);
    expect((await stat(join(repoRoot, 'dist/gateway.mjs'))).mtimeMs).toBe(before.mtimeMs);
  });
});
