import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The HTTP transport runs in the test process; its log lines would fill the output. The
    // stdio bin runs in its own process with its own environment and logs as usual.
    env: { SWITCHBOARD_LOG_LEVEL: 'silent' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
