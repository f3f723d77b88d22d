import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Type-level tests (*.test-d.ts): a misspelled field must be a compile error.
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
