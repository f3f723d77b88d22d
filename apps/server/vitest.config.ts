import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // One PostgreSQL server for the run (embedded, unless SWITCHBOARD_TEST_DATABASE_URL names one).
    globalSetup: ['@switchboard/testkit/postgres-setup'],
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] } },
      {
        extends: true,
        // The HTTP suite again on a PostgreSQL-backed server (the store suite runs both stores itself).
        // Each server and CLI process also opens a database (and each server makes one): more time.
        test: {
          name: 'postgres',
          include: ['test/**/*.test.ts'],
          exclude: ['test/store.*.test.ts', 'test/postgres.test.ts'],
          env: { SWITCHBOARD_TEST_STORE: 'postgres' },
          testTimeout: 60_000,
        },
      },
    ],
  },
});
