#!/usr/bin/env node
// Writes scripts/test-durations.json: each slow-stage (and browser) test file's
// own time in seconds (the file's wall time minus the time its tests waited for
// the machine-wide test lock), which scripts/vitest-sequencer.mjs uses to start
// the longest files first (docs/testing.md, "Longest first").
//
// Usage, from the repository root, after a measured run of the slow stage:
//   SLEDGE_TEST_LOCK_LOG=/tmp/lock.jsonl SLEDGE_TEST_CPU_LOG=/tmp/cpu.jsonl \
//     npx turbo run test:slow --concurrency=4 --continue \
//     -- --reporter=default --reporter=json --outputFile=.vitest-slow.json
//   node scripts/test-durations.mjs --lock-log /tmp/lock.jsonl --cpu-log /tmp/cpu.jsonl
// Reads every <package>/.vitest-slow.json (vitest's JSON reporter) it finds;
// packages without one keep their entries. vitest's JSON counts a file from its
// first test to its last, without its beforeAll and afterAll hooks (a schema
// built in beforeAll is not in it): with --cpu-log, a file's wall time is the
// CPU log's instead (scripts/vitest-cpu-log.mjs: from before the file's hooks
// to after them), and the JSON only says which files ran.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const OUT = join(ROOT, 'scripts', 'test-durations.json');
const args = process.argv.slice(2);
const lockLogAt = args.indexOf('--lock-log');
const lockLog = lockLogAt >= 0 ? args[lockLogAt + 1] : undefined;
if (lockLogAt >= 0 && (!lockLog || !existsSync(lockLog))) {
  console.error(`test-durations: --lock-log needs an existing file (got ${lockLog ?? 'nothing'})`);
  process.exit(2);
}
const cpuLogAt = args.indexOf('--cpu-log');
const cpuLog = cpuLogAt >= 0 ? args[cpuLogAt + 1] : undefined;
if (cpuLogAt >= 0 && (!cpuLog || !existsSync(cpuLog))) {
  console.error(`test-durations: --cpu-log needs an existing file (got ${cpuLog ?? 'nothing'})`);
  process.exit(2);
}
/** The CPU log's line per file (absolute path): { at, wallS }; a file logged twice keeps its last line. */
const whole = new Map();
if (cpuLog) {
  for (const l of readFileSync(cpuLog, 'utf8').split('\n').filter(Boolean)) {
    const x = JSON.parse(l);
    if (x.file && x.at && typeof x.wallS === 'number') whole.set(x.file, { end: Date.parse(x.at), start: Date.parse(x.at) - x.wallS * 1000 });
  }
}

const reports = [];
for (const top of ['apps', 'packages']) for (const d of readdirSync(join(ROOT, top))) reports.push(join(ROOT, top, d, '.vitest-slow.json'));
reports.push(join(ROOT, 'server', '.vitest-slow.json'), join(ROOT, 'e2e', '.vitest-slow.json'));

// Lock waits: one JSON line per hold, { kind, pid, file (relative to its package), waitMs, at }.
const holds = lockLog
  ? readFileSync(lockLog, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).map((h) => ({ ...h, end: Date.parse(h.at) }))
  : [];

const old = existsSync(OUT) ? JSON.parse(readFileSync(OUT, 'utf8')) : {};
const next = { ...old };
let files = 0;
for (const report of reports) {
  if (!existsSync(report)) continue;
  const pkg = dirname(report);
  for (const k of Object.keys(next)) if (k.startsWith(`${relative(ROOT, pkg)}/`)) delete next[k];
  const { testResults } = JSON.parse(readFileSync(report, 'utf8'));
  for (const r of testResults) {
    const rel = relative(pkg, r.name);
    const span = whole.get(r.name) ?? { start: r.startTime, end: r.endTime };
    const waited = holds
      .filter((h) => h.file === rel && h.end >= span.start && h.end <= span.end + 1000 && !h.kind.startsWith('quiet'))
      .reduce((s, h) => s + h.waitMs, 0);
    const own = Math.max(0, (span.end - span.start - waited) / 1000);
    next[relative(ROOT, r.name)] = Math.round(own);
    files++;
  }
}
const sorted = Object.fromEntries(Object.entries(next).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
writeFileSync(OUT, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`test-durations: ${files} files measured, ${Object.keys(sorted).length} in ${relative(ROOT, OUT)}`);
