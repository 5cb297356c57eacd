import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeSearchConformance } from './conformance';
import { openEmbeddedSearchInThread } from './embedded/embedded-search';

describeSearchConformance('embedded (in thread)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'search-conformance-'));
  return {
    index: openEmbeddedSearchInThread(dir, { batchSize: 100 }),
    reopen: async () => openEmbeddedSearchInThread(dir),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});
