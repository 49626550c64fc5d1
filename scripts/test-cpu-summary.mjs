#!/usr/bin/env node
// Ranks test files by the CPU they used, from a SLEDGE_TEST_CPU_LOG file
// (scripts/vitest-cpu-log.mjs): own process (every thread) + reaped children,
// in seconds, with wall time. Database servers' CPU is not counted.
//   node scripts/test-cpu-summary.mjs <log> [--top N]
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const [log, ...rest] = process.argv.slice(2);
if (!log) {
  console.error('usage: node scripts/test-cpu-summary.mjs <SLEDGE_TEST_CPU_LOG file> [--top N]');
  process.exit(2);
}
const topAt = rest.indexOf('--top');
const top = topAt >= 0 ? Number(rest[topAt + 1]) : 40;
const root = new URL('..', import.meta.url).pathname;
const rows = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
rows.sort((a, b) => b.ownS + b.childrenS - (a.ownS + a.childrenS));
let own = 0;
let kids = 0;
let wall = 0;
for (const r of rows) { own += r.ownS; kids += r.childrenS; wall += r.wallS; }
console.log(`${rows.length} files: ${own.toFixed(0)} CPU-s own + ${kids.toFixed(0)} CPU-s children = ${(own + kids).toFixed(0)}; ${wall.toFixed(0)} s of file wall time`);
console.log('  CPU-s    own  child   wall  file');
for (const r of rows.slice(0, top)) {
  const f = r.file ? relative(root, r.file) : '?';
  console.log(`${(r.ownS + r.childrenS).toFixed(1).padStart(7)} ${r.ownS.toFixed(1).padStart(6)} ${r.childrenS.toFixed(1).padStart(6)} ${r.wallS.toFixed(0).padStart(6)}  ${f}`);
}
