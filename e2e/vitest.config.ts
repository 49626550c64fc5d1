import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from '../scripts/vitest-sequencer.mjs';

/**
 * Browser files with long timeouts (`pnpm e2e`, and the last stage of `pnpm test`).
 * `vitest run` here runs one file at a time; the package's `test` script runs four
 * at a time (`--fileParallelism --maxWorkers=4`), longest first
 * (scripts/vitest-sequencer.mjs): each file has its own server, data directory,
 * Chromium profile, port and PostgreSQL database. The files mostly wait (for
 * pages, jobs, timed runs): two at a time kept the two cores about half busy.
 * Every test holds the shared side of the machine-wide test lock, so the timed
 * interactions of perf.e2e.ts run alone in `quiet()` even when another file
 * (or something else) runs tests beside them. `globalSetup` builds one 1-warehouse SQLite TPROC-C
 * file that files not about the build copy (src/prebuilt.ts).
 */
export default defineConfig({
  test: {
    include: ['src/**/*.e2e.ts'],
    setupFiles: ['../scripts/vitest-cpu-log.mjs', '../scripts/vitest-shared-lock.mjs'],
    globalSetup: ['src/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 120_000,
    reporters: ['verbose'],
    sequence: { sequencer: LongestFirstSequencer },
  },
});
