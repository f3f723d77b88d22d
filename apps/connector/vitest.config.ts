import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // End-to-end files start a server and several host processes each; on a small machine they
    // run one at a time so lease timings (TTLs of a second) are not stretched by CPU contention.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
