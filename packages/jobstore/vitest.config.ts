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
      // A writer or lock holder killed with SIGKILL, then the store checked.
      fault: ['src/crash.test.ts', 'src/lock.test.ts'],
    }),
  },
});
