import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // Embedded PGlite takes a few seconds to start in each file; real sockets need a little slack.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
