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

// What `npm start`, the image and docker compose run (ADR 0043): our code and youtubei.js bundled
// (ADR 0064), every other third-party package resolved from the root node_modules at run time, no
// TypeScript loader anywhere.
describe('npm run build', async () => {
  await buildBundles();
  const files = (await readdir(dist)).filter((name) => name.endsWith('.mjs'));
  const code = Object.fromEntries(await Promise.all(files.map(async (name) => [name, await readFile(join(dist, name), 'utf8')] as const)));

  it('writes the gateway, every service and the workers beside each other', () => {
    for (const entry of ['gateway', 'billing', 'research', 'provider', 'trends', 'monitoring', 'agents', 'search-worker'])
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

  /** The files of dist/ an entry loads before any dynamic import: its static graph through the chunks. */
  const staticFiles = (entry: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(entry)) return seen;
    seen.add(entry);
    for (const match of code[entry]!.matchAll(/^import[^'"]*?from\s*["']\.\/([^"']+)["']|^import\s*["']\.\/([^"']+)["']/gm))
      staticFiles((match[1] ?? match[2])!, seen);
    return seen;
  };
  /** The third-party modules an entry loads before any dynamic import. */
  const staticExternals = (entry: string): Set<string> =>
    new Set(
      [...staticFiles(entry)].flatMap((file) =>
        [...code[file]!.matchAll(/^import[^'"]*?from\s*["']([^"']+)["']|^import\s*["']([^"']+)["']/gm)]
          .map((match) => (match[1] ?? match[2])!)
          .filter((specifier) => !specifier.startsWith('./')),
      ),
    );
  /** Whether an entry's static graph holds a bundled package's code (esbuild names each bundled file in a comment). */
  const staticallyBundles = (entry: string, packageName: string): boolean =>
    [...staticFiles(entry)].some((file) => code[file]!.includes(`// node_modules/${packageName}/`));

  it("loads no YouTube client and no AI SDK in a gateway that hosts no service: they come with the services' code", () => {
    const gateway = staticExternals('gateway.mjs');
    expect(gateway).toContain('express');
    for (const heavy of ['ai', '@ai-sdk/openai-compatible', 'fast-xml-parser']) expect(gateway, heavy).not.toContain(heavy);
    expect(staticallyBundles('gateway.mjs', 'youtubei.js')).toBe(false);
    expect(staticallyBundles('provider.mjs', 'youtubei.js')).toBe(true);
  });

  it('bundles youtubei.js and the packages only it uses, rather than load some 700 modules from node_modules (ADR 0064)', () => {
    const imported = new Set(Object.values(code).flatMap(importsOf));
    for (const bundled of ['youtubei.js', '@bufbuild/protobuf', 'meriyah', 'fflate'])
      expect(
        [...imported].filter((specifier) => specifier === bundled || specifier.startsWith(`${bundled}/`)),
        bundled,
      ).toEqual([]);
    expect(staticExternals('provider.mjs')).toContain('zod');
  });

  it('loads sharp, the MCP SDK and nodemailer only when first used: a process that never converts a storyboard, serves /mcp or sends mail does not carry them', () => {
    const lazy = ['sharp', '@modelcontextprotocol/sdk/server/mcp.js', '@modelcontextprotocol/sdk/server/streamableHttp.js', 'nodemailer'];
    for (const entry of ['gateway.mjs', 'provider.mjs']) {
      const loaded = staticExternals(entry);
      for (const module of lazy) expect(loaded, `${entry} loads ${module} at start`).not.toContain(module);
    }
    const imported = new Set(Object.values(code).flatMap(importsOf));
    for (const module of lazy) expect(imported, `${module} is imported somewhere`).toContain(module);
  });

  it('loads the AI SDK with the first model call: no service, nor the services `npm start` hosts, carries it at start (ADR 0066)', () => {
    const lazy = ['ai', '@ai-sdk/openai-compatible'];
    const hosted = Object.keys(code).find((file) => file.startsWith('hosted-services-'));
    expect(hosted).toBeDefined();
    for (const entry of ['research.mjs', 'trends.mjs', 'agents.mjs', 'provider.mjs', hosted!]) {
      const loaded = staticExternals(entry);
      expect(loaded, entry).toContain('zod');
      for (const module of lazy) expect(loaded, `${entry} loads ${module} at start`).not.toContain(module);
    }
    const imported = new Set(Object.values(code).flatMap(importsOf));
    for (const module of lazy) expect(imported, `${module} is imported somewhere`).toContain(module);
  });
});
