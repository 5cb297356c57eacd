import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runModuleToExit } from '@vrs/testing/processes';
import { makeTempDir } from '@vrs/testing/temp-dir';

describe('openEmbeddedSearch', () => {
  it('never keeps its process alive while no call is outstanding', { timeout: 120_000 }, async () => {
    const dir = makeTempDir('vrs-embedded-search-');
    const searchModule = new URL('./embedded-search.ts', import.meta.url).pathname;
    // Opened and never called (a service that started and had no search to answer), then left
    // open: the process must still end by itself.
    const source = `import { openEmbeddedSearch } from ${JSON.stringify(searchModule)};
openEmbeddedSearch(${JSON.stringify(join(dir, 'index'))});`;
    // A tsx child starts in about 2 s alone and took over 20 s at a load average of 20: a wide limit.
    expect(await runModuleToExit(source, dir, 100_000)).toEqual({ code: 0, signal: null });
  });
});
