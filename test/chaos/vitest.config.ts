import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// `npm run test:chaos`: the production shape under faults (docs/chaos.md). Not part of `vitest run`'s
// projects: it starts a stack of its own and takes a few minutes, so CI runs it after `npm test`.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/chaos/**/*.test.ts'],
    maxWorkers: 1,
    testTimeout: 900_000,
    hookTimeout: 300_000,
  },
});
