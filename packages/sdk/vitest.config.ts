import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // One PostgreSQL server for the run (embedded, unless SWITCHBOARD_TEST_DATABASE_URL names one).
    globalSetup: ['@switchboard/testkit/postgres-setup'],
    projects: [
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          // Type-level tests (*.test-d.ts): a misspelled field must be a compile error.
          typecheck: { enabled: true, include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
        },
      },
      {
        extends: true,
        // The end-to-end suite again against a PostgreSQL-backed server (packing the package once is enough).
        test: { name: 'postgres', include: ['test/e2e/*.test.ts'], exclude: ['test/e2e/package.test.ts'], env: { SWITCHBOARD_TEST_STORE: 'postgres' } },
      },
    ],
  },
});
