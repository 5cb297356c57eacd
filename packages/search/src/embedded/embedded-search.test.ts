import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runModuleToExit } from '@vrs/testing/processes';

describe('openEmbeddedSearch', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('never keeps its process alive while no call is outstanding', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vrs-embedded-search-'));
    dirs.push(dir);
    const searchModule = new URL('./embedded-search.ts', import.meta.url).pathname;
    // Opened and never called (a service that started and had no search to answer), then left
    // open: the process must still end by itself.
    const source = `import { openEmbeddedSearch } from ${JSON.stringify(searchModule)};
openEmbeddedSearch(${JSON.stringify(join(dir, 'index'))});`;
    expect(await runModuleToExit(source, dir)).toEqual({ code: 0, signal: null });
  });
});
