import { defineConfig } from 'vitest/config';

/** One browser and one server at a time (2-core machine): files run in sequence, with long timeouts. */
export default defineConfig({
  test: {
    include: ['src/**/*.e2e.ts'],
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 120_000,
    reporters: ['verbose'],
  },
});
