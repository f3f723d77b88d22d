import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // End-to-end files start a server and several host processes each; on a small machine they
    // run one at a time so lease timings (TTLs of a second) are not stretched by CPU contention.
    fileParallelism: false,
    // One PostgreSQL server for the run, for the replicas test (embedded, unless SWITCHBOARD_TEST_DATABASE_URL names one).
    globalSetup: ['@switchboard/testkit/postgres-setup'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
