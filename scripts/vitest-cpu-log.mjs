// vitest setupFile of the sqlite, live, fault and solo tiers (scripts/vitest-tiers.mjs):
// with SLEDGE_TEST_CPU_LOG=<file>, each test file appends one JSON line with the
// CPU its own process used (every thread: VU worker_threads count) and the CPU
// of the child processes it started and reaped (CLI commands, spawned servers),
// in seconds, and its wall time (from before the file's own beforeAll hooks to after its
// afterAll hooks) with the time it ended (`at`). Database servers' CPU is not in it.
// `node scripts/test-cpu-summary.mjs <file>` ranks the files.
// Without the variable it does nothing.
import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';

const LOG = process.env.SLEDGE_TEST_CPU_LOG;
const HZ = 100; // USER_HZ on Linux

/** utime, stime, cutime, cstime of this process (/proc/self/stat fields 14-17), in seconds. */
function times() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return f.slice(11, 15).map((x) => Number(x) / HZ);
}

if (LOG) {
  let t0 = null;
  let file = null;
  beforeAll((suite) => {
    file = suite?.file?.filepath ?? suite?.file?.name ?? suite?.name ?? null;
    t0 = { at: Date.now(), cpu: times() };
  });
  afterAll(() => {
    if (!t0) return;
    const [u, s, cu, cs] = times().map((v, i) => v - t0.cpu[i]);
    const line = { file, pkg: process.env.npm_package_name ?? null, cwd: process.cwd(), at: new Date().toISOString(), wallS: (Date.now() - t0.at) / 1000, ownS: +(u + s).toFixed(2), childrenS: +(cu + cs).toFixed(2) };
    appendFileSync(LOG, `${JSON.stringify(line)}\n`);
  });
}
