import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from '../../scripts/vitest-sequencer.mjs';
import { tiers } from '../../scripts/vitest-tiers.mjs';

/** The sqlite tier builds one 1-warehouse SQLite file first, which its files copy (test/prebuilt.ts). */
const withSqliteSetup = (projects: ReturnType<typeof tiers>) =>
  projects.map((p) => (p.test.name === 'sqlite' ? { ...p, test: { ...p.test, globalSetup: ['test/prebuilt-setup.ts'] } } : p));

export default defineConfig({
  test: {
    testTimeout: 300000,
    hookTimeout: 300000,
    fileParallelism: false,
    // Slow-stage files longest first (scripts/vitest-sequencer.mjs).
    sequence: { sequencer: LongestFirstSequencer },
    projects: withSqliteSetup(tiers(import.meta.url, {
      // `sledge build` a 1-warehouse SQLite schema in a temp dir and run timed jobs on it.
      // `sledge build` a TPROC-H SF 0.01 DuckDB file in a temp dir and run the power test on it.
      sqlite: ['test/artifact.test.ts', 'test/chbench.test.ts', 'test/cli.test.ts', 'test/duckdb.test.ts', 'test/hammerdb-python-sqlite.test.ts', 'test/hammerdb-sqlite.test.ts', 'test/install-cli.test.ts', 'test/mix.test.ts', 'test/report.test.ts', 'test/thresholds.test.ts'],
      live: [
        // The local MariaDB and PostgreSQL.
        'test/cli-mariadb.test.ts',
        'test/hammerdb-databases.test.ts',
        'test/hammerdb-python-databases.test.ts',
        // The same, against HammerDB 4.12's recorded output (test/fixtures/hammerdb-4.12).
        'test/hammerdb-shapes.test.ts',
        // A nats-server started by the test (test/nats-harness.ts); replicas-postgresql,
        // replicas-restart and replicas-trust also run on the local PostgreSQL; replicas-script on a SQLite file.
        'test/replicas-auth.test.ts',
        'test/replicas-connection.test.ts',
        'test/replicas-postgresql.test.ts',
        'test/replicas-registry.test.ts',
        'test/replicas-script.test.ts',
        'test/replicas-sim.test.ts',
        'test/replicas-trust.test.ts',
      ],
      // Alone on the machine, after everything else: the replicas must stop their VUs within
      // seconds of the primary's restart (as a quiet section it drained the whole slow stage).
      solo: ['test/replicas-restart.test.ts'],
    })),
  },
});
