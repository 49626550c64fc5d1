import { defineConfig } from 'vitest/config';
import { tiers } from '../../scripts/vitest-tiers.mjs';

export default defineConfig({
  test: {
    testTimeout: 300000,
    hookTimeout: 300000,
    fileParallelism: false,
    projects: tiers(import.meta.url, {
      // No server: SF 0.01 builds and the 22 queries on in-memory and temp-dir DuckDB databases (each file 10-40 s).
      sqlite: ['src/tproch/contract.test.ts'],
    }),
  },
});
