import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '@vrs/kit';
import { buildBundles } from '@vrs/testing/build-bundles';

const dist = join(repoRoot, 'dist');

/** Every module specifier a bundle imports, static or dynamic. */
function importsOf(code: string): string[] {
  return [...code.matchAll(/(?:^import[^'"]*?from\s*|^import\s*|\bimport\()["']([^"']+)["']/gm)].map((match) => match[1]!);
}

// What `npm start`, the image and docker compose run (ADR 0043): our code bundled, every third-party
// package resolved from the root node_modules at run time, no TypeScript loader anywhere.
describe('npm run build', async () => {
  await buildBundles();
  const files = (await readdir(dist)).filter((name) => name.endsWith('.mjs'));
  const code = Object.fromEntries(await Promise.all(files.map(async (name) => [name, await readFile(join(dist, name), 'utf8')] as const)));

  it('writes the gateway, every service and the workers beside each other', () => {
    for (const entry of [
      'gateway',
      'billing',
      'research',
      'provider',
      'trends',
      'monitoring',
      'agents',
      'search-worker',
      'checkpoint-worker',
    ])
      expect(files, entry).toContain(`${entry}.mjs`);
  });

  it('bundles our own packages and registers no TypeScript loader, the search worker included', () => {
    for (const [name, text] of Object.entries(code)) {
      const imports = importsOf(text);
      expect(
        imports.filter((specifier) => specifier.startsWith('@vrs/') || specifier.endsWith('.ts') || specifier.startsWith('tsx')),
        name,
      ).toEqual([]);
      expect(
        imports.filter((specifier) => specifier.startsWith('.') && !files.includes(specifier.slice(2))),
        name,
      ).toEqual([]);
    }
    expect(code['search-worker.mjs']).not.toMatch(/tsx/);
  });

  it('finds every third-party import from dist/, as the processes will', async () => {
    const external = [...new Set(Object.values(code).flatMap(importsOf))].filter(
      (specifier) => !specifier.startsWith('.') && !specifier.startsWith('node:'),
    );
    expect(external).toContain('express');
    // Resolved by Node's own ESM resolver from a module in dist/ (an -e script's URL is its cwd).
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', `for (const s of ${JSON.stringify(external)}) import.meta.resolve(s); console.log('resolved')`],
      { cwd: dist },
    );
    expect(stdout.trim()).toBe('resolved');
  });
});
