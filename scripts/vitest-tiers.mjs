// Test tiers (docs/testing.md, "Tiers"): a package's vitest config splits its
// test files into projects, each file in exactly one.
//   unit   - no database server, no nats-server or pgbouncer, nothing killed,
//            no fuzzer, no timed job runs: pure code, SQLite files in a temp
//            dir at the driver and store level, fake sockets, child processes
//            that exit by themselves. `pnpm test:unit`: each package's
//            `test:unit` script passes `--isolate=false`, so its unit files run
//            one after the other in one worker that imports the package's
//            modules once (a unit file puts back the global state it changes).
//   sqlite - builds and timed runs of TPROC-C/TPROC-H jobs on SQLite files in a
//            temp dir, through the server or the CLI: no database server, but
//            each file takes 10-70 s of runs. `pnpm test:sqlite`.
//   live   - needs the local PostgreSQL or MariaDB, or starts nats-server or
//            pgbouncer. `pnpm test` (after unit and sqlite, one package at a time).
//   fault  - kills a process with SIGKILL to test recovery, cuts off the
//            shared PostgreSQL's sessions, drops connections, or fuzzes.
//   solo   - must have the machine to itself for the whole file (restarts
//            the shared PostgreSQL): runs last, one file at a time, alone.
// `pnpm test` runs the unit tier first, then the sqlite, live and fault tiers
// of every package (and the browser suite) side by side, files in parallel,
// then the solo files. sqlite, live and fault files hold the shared side of the
// machine-wide test lock (scripts/vitest-shared-lock.mjs), so the few parts
// that measure the machine run alone inside `quiet()` (scripts/test-quiet.mjs;
// `quiet(fn, 'db')` when only the database servers must be quiet: the sqlite
// tier keeps running beside it).
// `vitest run` in a package runs unit files, then sqlite/live/fault together,
// then solo (sequence.groupOrder).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configDefaults } from 'vitest/config';

const ORDER = ['sqlite', 'live', 'fault', 'solo'];
const GROUP = { sqlite: 1, live: 1, fault: 1, solo: 2 };
const SHARED_LOCK = fileURLToPath(new URL('./vitest-shared-lock.mjs', import.meta.url));
const CPU_LOG = fileURLToPath(new URL('./vitest-cpu-log.mjs', import.meta.url));

/**
 * The vitest projects of a package. `configUrl` is the config's import.meta.url
 * (paths are relative to the package); `include` the package's test globs;
 * `sqlite`, `live`, `fault` and `solo` exact file paths; every other test file is unit.
 * A listed file that does not exist, or one listed twice, is an error: a
 * renamed test must not drop out of its tier (or into the unit tier).
 */
export function tiers(configUrl, { include = configDefaults.include, ...listedBy }) {
  const dir = fileURLToPath(new URL('.', configUrl));
  for (const k of Object.keys(listedBy)) if (!ORDER.includes(k)) throw new Error(`vitest tiers: unknown tier ${k} in ${dir}vitest.config.ts`);
  const listed = ORDER.flatMap((k) => listedBy[k] ?? []);
  for (const f of listed) {
    if (!existsSync(new URL(f, configUrl))) throw new Error(`vitest tiers: ${f} is listed in ${dir}vitest.config.ts but does not exist`);
  }
  const twice = listed.filter((f, i) => listed.indexOf(f) !== i);
  if (twice.length > 0) throw new Error(`vitest tiers: ${twice.join(', ')} listed twice in ${dir}vitest.config.ts`);
  const projects = [{ extends: true, test: { name: 'unit', include, exclude: [...configDefaults.exclude, ...listed], sequence: { groupOrder: 0 } } }];
  for (const name of ORDER) {
    const files = listedBy[name] ?? [];
    if (files.length === 0) continue;
    const setupFiles = name === 'solo' ? [CPU_LOG] : [CPU_LOG, SHARED_LOCK];
    // SLEDGE_TEST_TIER tells the test lock which rooms a file holds (scripts/test-quiet.mjs):
    // sqlite files use no database server, so a quiet(fn, 'db') section does not wait for them.
    projects.push({ extends: true, test: { name, include: files, setupFiles, env: { SLEDGE_TEST_TIER: name }, sequence: { groupOrder: GROUP[name] } } });
  }
  return projects;
}
