// Test tiers (docs/testing.md, "Tiers"): a package's vitest config splits its
// test files into projects, each file in exactly one.
//   unit  - no database server, no nats-server or pgbouncer, nothing killed,
//           no fuzzer: pure code, SQLite files in a temp dir, fake sockets,
//           child processes that exit by themselves. `pnpm test:unit`.
//   live  - needs the local PostgreSQL or MariaDB, or starts nats-server or
//           pgbouncer. `pnpm test` (stage 2, one package at a time).
//   fault - kills a process with SIGKILL to test recovery, restarts or cuts
//           off the shared PostgreSQL, drops connections, or fuzzes.
//           `pnpm test` (stage 3, after every live suite, one package at a time).
// `vitest run` in a package runs all its projects, as before, in that order
// (sequence.groupOrder): unit files, then live ones, then fault ones.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configDefaults } from 'vitest/config';

/**
 * The vitest projects of a package. `configUrl` is the config's import.meta.url
 * (paths are relative to the package); `include` the package's test globs;
 * `live` and `fault` exact file paths. A listed file that does not exist is an
 * error: a renamed test must not drop out of its tier (or into the unit tier).
 */
export function tiers(configUrl, { include = configDefaults.include, live = [], fault = [] }) {
  const dir = fileURLToPath(new URL('.', configUrl));
  const listed = [...live, ...fault];
  for (const f of listed) {
    if (!existsSync(new URL(f, configUrl))) throw new Error(`vitest tiers: ${f} is listed in ${dir}vitest.config.ts but does not exist`);
  }
  const twice = listed.filter((f, i) => listed.indexOf(f) !== i);
  if (twice.length > 0) throw new Error(`vitest tiers: ${twice.join(', ')} listed twice in ${dir}vitest.config.ts`);
  const projects = [{ extends: true, test: { name: 'unit', include, exclude: [...configDefaults.exclude, ...listed], sequence: { groupOrder: 0 } } }];
  if (live.length > 0) projects.push({ extends: true, test: { name: 'live', include: live, sequence: { groupOrder: 1 } } });
  if (fault.length > 0) projects.push({ extends: true, test: { name: 'fault', include: fault, sequence: { groupOrder: 2 } } });
  return projects;
}
