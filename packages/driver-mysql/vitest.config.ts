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
      // The local MariaDB (127.0.0.1:3306, src/testing/live.ts): schemas, sessions, LOAD DATA.
      live: [
        'src/chbench.mariadb.test.ts',
        'src/contract.mariadb.test.ts',
        'src/contract.modes.test.ts',
        'src/contract.mysql.test.ts',
        'src/engine/ash/ash.test.ts',
        'src/engine/connect.test.ts',
        'src/engine/errors.test.ts',
        'src/engine/native-loader.live.test.ts',
        'src/engine/query-session.test.ts',
        'src/param-session.mariadb.test.ts',
        'src/live-mysql.test.ts',
        'src/tprocc/loader.live.test.ts',
        'src/tprocc/purge.live.test.ts',
        'src/tprocc/semantics.live.test.ts',
        'src/tprocc/vu.test.ts',
        'src/tproch/contract.mysql.test.ts',
        'src/tproch/contract.test.ts',
      ],
    }),
  },
});
