import { defineConfig } from 'vitest/config';

/**
 * Browser files with long timeouts (`pnpm e2e`, and the last stage of `pnpm test`).
 * Every test holds the shared side of the machine-wide test lock, so the timed
 * interactions of perf.e2e.ts run alone in `quiet()` even when something else
 * runs tests beside them. `globalSetup` builds one 1-warehouse SQLite TPROC-C
 * file that files not about the build copy (src/prebuilt.ts).
 */
export default defineConfig({
  test: {
    include: ['src/**/*.e2e.ts'],
    setupFiles: ['../scripts/vitest-shared-lock.mjs'],
    globalSetup: ['src/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 120_000,
    reporters: ['verbose'],
  },
});
