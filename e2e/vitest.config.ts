import { defineConfig } from 'vitest/config';

/**
 * Browser files with long timeouts (`pnpm e2e`, and the last stage of `pnpm test`).
 * `vitest run` here runs one file at a time; the package's `test` script runs two
 * at a time (`--fileParallelism --maxWorkers=2`): each file has its own server,
 * data directory, Chromium profile, port and PostgreSQL database.
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
  },
});
