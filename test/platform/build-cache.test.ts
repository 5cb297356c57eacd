import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '@vrs/kit';

// `npm run build` and `npm start` bundle through turbo's cache: the root task `//#bundle` runs
// scripts/build.mjs only when an input changed, and otherwise finds dist/ as it left it (or restores it).
const turbo = (...args: string[]) =>
  promisify(execFile)(join(repoRoot, 'node_modules/.bin/turbo'), ['run', '//#bundle', ...args], { cwd: repoRoot });

describe('the build through turbo', () => {
  it("hashes every workspace's sources, the lock file and the build script, not what it writes", async () => {
    const [task] = (JSON.parse((await turbo('--dry=json')).stdout) as { tasks: { inputs: Record<string, string>; outputs: string[] }[] })
      .tasks;
    const inputs = Object.keys(task!.inputs);
    for (const file of [
      'gateway/src/main.ts',
      'packages/kit/src/index.ts',
      'services/research/src/main.ts',
      'package-lock.json',
      'scripts/build.mjs',
    ])
      expect(inputs, file).toContain(file);
    expect(inputs.filter((file) => file.startsWith('dist/') || file.startsWith('node_modules/'))).toEqual([]);
    expect(task!.outputs).toEqual(['dist/**']);
  });

  it('run again with nothing changed, is a cache hit that leaves dist/ alone', async () => {
    await turbo();
    const before = await stat(join(repoRoot, 'dist/gateway.mjs'));
    const { stdout } = await turbo('--output-logs=hash-only');
    expect(stdout).toMatch(/cache hit/);
    expect((await stat(join(repoRoot, 'dist/gateway.mjs'))).mtimeMs).toBe(before.mtimeMs);
  });
});
