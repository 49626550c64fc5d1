import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from '../scripts/vitest-sequencer.mjs';
import { tiers } from '../scripts/vitest-tiers.mjs';

type Project = { test: { name: string; globalSetup?: string[] } };

/** The sqlite, fault and solo tiers build their shared schema templates once per code version (docs/testing.md, "Shared SQLite schemas"). */
function withSqliteTemplates<P extends Project>(projects: P[]): P[] {
  return projects.map((p) => (p.test.name === 'sqlite' || p.test.name === 'fault' || p.test.name === 'solo' ? { ...p, test: { ...p.test, globalSetup: ['test/global-sqlite-templates.ts'] } } : p));
}

export default defineConfig({
  test: {
    testTimeout: 300000,
    hookTimeout: 300000,
    fileParallelism: false,
    // Slow-stage files longest first (scripts/vitest-sequencer.mjs).
    sequence: { sequencer: LongestFirstSequencer },
    projects: withSqliteTemplates(tiers(import.meta.url, {
      // Run timed jobs on a 1-warehouse SQLite schema in a temp dir (copied from
      // the template test/global-sqlite-templates.ts builds once, or built).
      sqlite: [
        'test/ash-sqlite.test.ts',
        'test/changes-sqlite.test.ts',
        'test/hammerdb-datagen.test.ts',
        'test/hammerdb-files.test.ts',
        'test/hammerdb-v6.test.ts',
        'test/hammerdb-verbs.test.ts',
        'test/hammerdb.test.ts',
        'test/mix-sqlite.test.ts',
        'test/noop-workload.test.ts',
        'test/paths.test.ts',
        'test/report-sqlite.test.ts',
        'test/report-tproch.test.ts',
        'test/script-report-sqlite.test.ts',
        'test/script-sqlite.test.ts',
        'test/script-duckdb.test.ts',
        'test/security-auth.test.ts',
        'test/scalability-sqlite.test.ts',
        'test/shapes-hammerdb.test.ts',
        'test/shapes-sqlite.test.ts',
        'test/sqlite-lifecycle.test.ts',
        'test/sqlite-wal.test.ts',
        'test/thresholds-sqlite.test.ts',
        'test/tproch-sqlite.test.ts',
        'test/tproch-duckdb.test.ts',
        'test/chbench-duckdb.test.ts',
      ],
      live: [
        // The local PostgreSQL (127.0.0.1:5432).
        'test/ash-scope-postgresql.test.ts',
        'test/ash-topsql-postgresql.test.ts',
        'test/changes-postgresql.test.ts',
        'test/changes-tproch-postgresql.test.ts',
        'test/failover-postgresql.test.ts',
        'test/hammerdb-secret-binding.test.ts',
        'test/hammerdb-postgresql.test.ts',
        'test/hammerdb-v6-postgresql.test.ts',
        'test/input.test.ts',
        'test/native-vu.test.ts',
        'test/pool-postgresql.test.ts',
        'test/postgresql.test.ts',
        'test/report-postgresql.test.ts',
        'test/scalability-postgresql.test.ts',
        'test/schema-options-shape.test.ts',
        'test/secret-binding-pool.test.ts',
        'test/secrets.test.ts',
        'test/tproch-postgresql.test.ts',
        'test/tproch-answers-sf1.test.ts',
        // The local MariaDB (127.0.0.1:3306).
        'test/ash-scope-mariadb.test.ts',
        'test/changes-mariadb.test.ts',
        'test/failover-mariadb.test.ts',
        'test/mariadb.test.ts',
        'test/native-vu-mariadb.test.ts',
        'test/tproch-mariadb.test.ts',
        // Both (chbench: SQLite too).
        'test/chbench.test.ts',
        'test/script-live.test.ts',
        'test/script-native.test.ts',
        'test/datagen.test.ts',
        'test/failed-build-cleanup.test.ts',
        'test/preflight-build.test.ts',
        // PostgreSQL and MariaDB through a pgbouncer the test starts.
        'test/async-sessions.test.ts',
      ],
      fault: [
        // A server killed with SIGKILL mid-run or while holding the store.
        'test/crash.test.ts',
        'test/lock.test.ts',
        'test/store-faults.test.ts',
        // test/faults: kill -9, PostgreSQL sessions
        // terminated, WebSockets dropped, 50 viewers, long runs and bounded output.
        'test/faults/kill9.test.ts',
        'test/faults/long-run.test.ts',
        'test/faults/output-bound.test.ts',
        'test/faults/pg-sessions.test.ts',
        'test/faults/ws-resume.test.ts',
        'test/faults/ws-viewers.test.ts',
        // fast-check over the REST API.
        'test/fuzz.test.ts',
      ],
      // Alone on the machine, after everything else: restarts the shared PostgreSQL.
      // Alone too: rates and latencies that must be met on time (arrival rates, the capacity
      // search against an SLO). As quiet sections they drained the whole slow stage (docs/testing.md).
      solo: ['test/faults/pg-restart.test.ts', 'test/faults/pg-settings-restart.test.ts', 'test/shapes-postgresql.test.ts', 'test/shapes-sqlite-rates.test.ts'],
    })),
  },
});
