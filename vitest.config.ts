import { defineConfig } from 'vitest/config';

// Two projects: fast unit/service tests, and e2e tests that share one full stack per run
// (started once in globalSetup). At most 2 workers: these machines have 2 cores.
export default defineConfig({
  test: {
    maxWorkers: 2,
    // Safety nets, not speed checks: on two cores at a load average of 20 a stack's start and a
    // browser's launch take minutes, and no test's outcome may depend on the machine's speed.
    testTimeout: 120_000,
    hookTimeout: 240_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['packages/*/{src,test}/**/*.test.ts', 'services/*/src/**/*.test.ts', 'gateway/src/**/*.test.ts', 'test/platform/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
        },
      },
    ],
  },
});
