import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // The browser console is built once, before the files that serve it start.
    globalSetup: ['test/browser/global-setup.ts'],
    // Embedded PGlite takes a few seconds to start in each file; real sockets need a little slack.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A worker keeps its loaded modules from one file to the next instead of loading the sources again for
    // each: module loading was a third of the suite's time (173 s of 574 s on two cores). Files therefore
    // restore what they change (spies, fake timers) and hold no state in module scope that another file
    // reads; the suite passes in shuffled file order too (vitest --sequence.shuffle).
    isolate: false,
    // Much of the suite waits on servers, sockets and child processes rather than on the CPU: even on two
    // cores, two workers finish in two thirds of the time one takes (measured: 4.7 min against 7 min).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
