import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '@vrs/kit';

const run = promisify(execFile);

/** [file, what it imports, the rule's message when it must be refused (undefined: allowed)] */
const cases: [file: string, specifier: string, refusedWith?: RegExp][] = [
  ['services/trends/src/probe.ts', '@vrs/research/config', /typed client/],
  ['services/trends/src/probe.ts', '@vrs/research/src/module', /typed client/],
  ['services/trends/src/probe.ts', '../../research/src/module', /typed client/],
  ['services/trends/src/probe.ts', '@vrs/provider', undefined],
  ['services/research/src/probe.ts', '@vrs/gateway/config', /never import it/],
  ['services/research/src/probe.ts', '@vrs/youtube', /Only the provider speaks InnerTube/],
  ['services/research/src/probe.ts', 'youtubei.js', /Only the provider speaks InnerTube/],
  ['services/provider/src/probe.ts', '@vrs/youtube', undefined],
  ['services/research/src/probe.ts', '@vrs/testing/nats', /for tests, harnesses and benchmarks only/],
  ['services/research/src/probe.test.ts', '@vrs/testing/nats', undefined],
  ['services/research/src/testing/probe-harness.ts', '@vrs/testing/nats', undefined],
  ['services/research/src/probe.ts', '../../../test/e2e/global-setup', /test workspace/],
  ['packages/kit/src/probe.ts', '@vrs/research', /never import a service or the gateway/],
  ['packages/bus/src/probe.ts', '../../../services/billing/src/module', /never import a service or the gateway/],
  ['packages/kit/src/probe.ts', '@vrs/store', undefined],
  ['packages/contracts/src/probe.ts', '@vrs/kit', /import nothing of ours/],
  ['packages/contracts/src/probe.ts', 'zod', undefined],
  ['gateway/src/probe.ts', '@vrs/provider/config', undefined],
  ['gateway/src/probe.ts', '@vrs/provider/src/module', /package entry and `\/config` only/],
  ['gateway/src/probe.ts', '@vrs/youtube', /Only the provider speaks InnerTube/],
  ['test/e2e/probe.test.ts', '@vrs/testing/youtube-replay', undefined],
  ['test/e2e/probe.test.ts', '@vrs/research/src/module', /package entry/],
];

interface Diagnostic {
  message: string;
  category: string;
  location: { path: string };
}

/**
 * The project's biome.json applied to probe files laid out like the tree, in a scratch directory:
 * the real tree is never touched, and each case is one import in a file of its own.
 */
describe('import boundaries (biome noRestrictedImports)', () => {
  let scratch: string;
  let diagnostics: Diagnostic[];

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'vrs-boundaries-'));
    const config = JSON.parse(await readFile(join(repoRoot, 'biome.json'), 'utf8'));
    delete config.$schema;
    await writeFile(join(scratch, 'biome.json'), JSON.stringify(config));
    for (const [n, [file, specifier]] of cases.entries()) {
      const path = join(scratch, dirname(file), `case-${n}-${file.split('/').pop()}`);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, `import { probe } from '${specifier}';\n\nexport const used = probe;\n`);
    }
    const biome = join(repoRoot, 'node_modules', '.bin', 'biome');
    const output = await run(biome, ['lint', '--colors=off', '--vcs-enabled=false', '--reporter=json', '.'], { cwd: scratch }).then(
      (done) => done.stdout,
      (failed: { stdout: string }) => failed.stdout,
    );
    diagnostics = (JSON.parse(output.slice(output.indexOf('{'))) as { diagnostics: Diagnostic[] }).diagnostics;
  }, 30_000);

  afterAll(() => rm(scratch, { recursive: true, force: true }));

  it.each(cases.map((entry, n) => [n, ...entry] as const))('case %i: %s importing %s', (n, file, _specifier, refusedWith) => {
    const found = diagnostics.filter((d) => d.location.path.includes(`case-${n}-`) && d.category === 'lint/style/noRestrictedImports');
    if (refusedWith) {
      expect(found, `${file} should be refused`).toHaveLength(1);
      expect(found[0]!.message).toMatch(refusedWith);
    } else {
      expect(found, `${file} should be allowed`).toEqual([]);
    }
  });
});
