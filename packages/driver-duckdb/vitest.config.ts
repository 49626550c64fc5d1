import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from '../../scripts/vitest-sequencer.mjs';
import { tiers } from '../../scripts/vitest-tiers.mjs';

export default defineConfig({
  test: {
    testTimeout: 300000,
    hookTimeout: 300000,
    fileParallelism: false,
    // Slow-stage files longest first (scripts/vitest-sequencer.mjs).
    sequence: { sequencer: LongestFirstSequencer },
    projects: tiers(import.meta.url, {
      // No server: SF 0.01 builds and the 22 queries on in-memory and temp-dir DuckDB databases (each file 10-40 s);
      // a 1-warehouse TPROC-C build, and CH-benCHmark's 22 queries on one (about 35 s each).
      sqlite: ['src/tproch/contract.test.ts', 'src/tprocc/build.test.ts', 'src/tprocc/chbench.test.ts'],
    }),
  },
});
