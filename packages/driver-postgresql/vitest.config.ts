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
      // The local PostgreSQL (127.0.0.1:5432): schemas, sessions, psql.
      live: [
        'src/chbench.test.ts',
        'src/contract.procs.test.ts',
        'src/contract.test.ts',
        'src/engine/ash/ash.test.ts',
        'src/engine/connect.test.ts',
        'src/engine/loader.test.ts',
        'src/engine/param-pipeline.test.ts',
        'src/engine/query-session.test.ts',
        'src/engine/script-native.test.ts',
        'src/param-session.test.ts',
        'src/tprocc/native-spec.test.ts',
        'src/tprocc/routines.test.ts',
        'src/tprocc/schema.test.ts',
        'src/tprocc/sql.test.ts',
        'src/tproch/contract.test.ts',
      ],
      // Alone on the machine, after everything else: the connect timeout measured on the clock.
      solo: ['src/engine/connect-timeout.test.ts'],
    }),
  },
});
