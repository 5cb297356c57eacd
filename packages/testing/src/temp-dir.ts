import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/**
 * A new directory under the OS temp dir (named `<prefix>XXXXXX`), removed with all it holds when the
 * current test finishes: after the afterEach hooks, so whatever a test opened in it is closed by then.
 * Call it in a test or a beforeEach. A beforeAll has no current test (vitest throws, and an afterAll
 * registered while hooks run never runs), so a directory a whole suite shares keeps its own afterAll.
 */
export function makeTempDir(prefix: string): string {
  let path: string | undefined;
  // Registered first: outside a test it throws before there is a directory to leave behind.
  onTestFinished(() => (path === undefined ? undefined : rm(path, { recursive: true, force: true })));
  path = mkdtempSync(join(tmpdir(), prefix));
  return path;
}
