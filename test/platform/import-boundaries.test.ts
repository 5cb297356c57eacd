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

/**
 * [file, what it imports, refused?] under biome's noUndeclaredDependencies, with the manifests of
 * `manifests` laid out beside them: a package declared in the nearest package.json is allowed, a
 * devDependency only in tests, harnesses, test suites shared between adapters (under `test/`) and benchmarks.
 */
const declarationCases: [file: string, specifier: string, refused: boolean][] = [
  ['services/billing/src/probe.ts', 'zod', false],
  ['services/billing/src/probe.ts', 'lru-cache', true],
  ['services/billing/src/probe.ts', 'vitest', true],
  ['services/billing/src/probe.test.ts', 'vitest', false],
  ['services/billing/src/testing/probe-harness.ts', 'vitest', false],
  ['packages/bus/test/probe-behaviour.ts', 'vitest', false],
  ['bench/probe/main.ts', 'autocannon', false],
  ['scripts/probe.ts', 'autocannon', true],
];
const manifests: Record<string, object> = {
  'package.json': { name: 'probe-root', private: true, devDependencies: { autocannon: '8.0.0' } },
  'services/billing/package.json': { name: '@probe/billing', dependencies: { zod: '4.0.0' }, devDependencies: { vitest: '4.0.0' } },
  'packages/bus/package.json': { name: '@probe/bus', devDependencies: { vitest: '4.0.0' } },
};

interface Diagnostic {
  message: string;
  category: string;
  location: { path: string };
}

/**
 * The project's biome.json applied to probe files laid out like the tree, in a scratch directory:
 * the real tree is never touched, and each case is one import in a file of its own.
 */
describe('import boundaries (biome noRestrictedImports) and declared dependencies (noUndeclaredDependencies)', () => {
  let scratch: string;
  let diagnostics: Diagnostic[];

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'vrs-boundaries-'));
    const config = JSON.parse(await readFile(join(repoRoot, 'biome.json'), 'utf8'));
    delete config.$schema;
    await writeFile(join(scratch, 'biome.json'), JSON.stringify(config));
    const probes = [
      ...cases.map(([file, specifier], n) => [`case-${n}`, file, specifier]),
      ...declarationCases.map(([file, specifier], n) => [`declared-${n}`, file, specifier]),
    ];
    for (const [name, file, specifier] of probes) {
      const path = join(scratch, dirname(file!), `${name}-${file!.split('/').pop()}`);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, `import { probe } from '${specifier}';\n\nexport const used = probe;\n`);
    }
    for (const [file, manifest] of Object.entries(manifests)) {
      await mkdir(dirname(join(scratch, file)), { recursive: true });
      await writeFile(join(scratch, file), JSON.stringify(manifest));
    }
    const biome = join(repoRoot, 'node_modules', '.bin', 'biome');
    const output = await run(biome, ['lint', '--colors=off', '--vcs-enabled=false', '--reporter=json', '.'], { cwd: scratch }).then(
      (done) => done.stdout,
      (failed: { stdout: string }) => failed.stdout,
    );
    diagnostics = (JSON.parse(output.slice(output.indexOf('{'))) as { diagnostics: Diagnostic[] }).diagnostics;
  });

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

  it.each(declarationCases.map((entry, n) => [n, ...entry] as const))('declared %i: %s importing %s', (n, file, _specifier, refused) => {
    const found = diagnostics.filter(
      (d) => d.location.path.includes(`declared-${n}-`) && d.category === 'lint/correctness/noUndeclaredDependencies',
    );
    expect(found, `${file} should be ${refused ? 'refused' : 'allowed'}`).toHaveLength(refused ? 1 : 0);
  });
});
