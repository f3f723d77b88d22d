import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // One PostgreSQL server for the run (embedded, unless SWITCHBOARD_TEST_DATABASE_URL names one).
    globalSetup: ['@switchboard/testkit/postgres-setup'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
