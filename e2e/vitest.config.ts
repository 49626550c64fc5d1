import { defineConfig } from 'vitest/config';

/**
 * `pnpm e2e`: one browser and one server at a time, files in sequence, with long
 * timeouts. `pnpm test` runs them two at a time beside the other packages' slow
 * tiers (test:slow): every test holds the shared side of the machine-wide test
 * lock, and the timed interactions of perf.e2e.ts run alone in `quiet()`.
 */
export default defineConfig({
  test: {
    include: ['src/**/*.e2e.ts'],
    setupFiles: ['../scripts/vitest-shared-lock.mjs'],
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 120_000,
    reporters: ['verbose'],
  },
});
