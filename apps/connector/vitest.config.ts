import { defineConfig } from 'vitest/config';

/** The e2e files of a message's life (delivered, read, failed, tapbacks, edits, unsends) and of transfers, run again on a PostgreSQL-backed server. */
const MESSAGE_LIFE = [
  'test/message-life.e2e.test.ts',
  'test/message-life-failover.e2e.test.ts',
  'test/bluebubbles-message-life.e2e.test.ts',
  'test/bluebubbles-message-life-failover.e2e.test.ts',
  'test/platform-cli.e2e.test.ts',
  // Transfers are stored in the server's database, chunk by chunk: both stores serve them.
  'test/transfers.e2e.test.ts',
];

export default defineConfig({
  test: {
    // End-to-end files start a server and several host processes each; on a small machine they
    // run one at a time so lease timings (TTLs of a second) are not stretched by CPU contention.
    fileParallelism: false,
    // One PostgreSQL server for the run, for the replicas test and the postgres project (embedded,
    // unless SWITCHBOARD_TEST_DATABASE_URL names one).
    globalSetup: ['@switchboard/testkit/postgres-setup'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] } },
      {
        extends: true,
        // The message-life files again with the server on PostgreSQL (as the server's own postgres project).
        test: { name: 'postgres', include: MESSAGE_LIFE, env: { SWITCHBOARD_TEST_STORE: 'postgres' } },
      },
    ],
  },
});
