import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // The crash rounds start and kill real processes and time them against a lease TTL: one file at a time.
    fileParallelism: false,
    testTimeout: 120_000,
  },
});
