import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // start.test.ts and readme.test.ts each run `pnpm start`, which runs turbo's build of the
    // server and the connector: two at once could restore dist/ under a starting server.
    fileParallelism: false,
  },
});
