#!/usr/bin/env node
// Sums a test-lock log (SLEDGE_TEST_LOCK_LOG, scripts/test-quiet.mjs): per kind of
// hold, how many, the time spent waiting for the lock (total, largest) and held.
// Usage: node scripts/lock-log-summary.mjs <file.jsonl> [--top N]
import { readFileSync } from 'node:fs';

const [file, flag, n] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/lock-log-summary.mjs <file.jsonl> [--top N]');
  process.exit(2);
}
const rows = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const s = (ms) => (ms / 1000).toFixed(1);
const kinds = {};
for (const r of rows) {
  const k = (kinds[r.kind] ??= { n: 0, wait: 0, maxWait: 0, hold: 0, over10s: 0 });
  k.n += 1;
  k.wait += r.waitMs;
  k.hold += r.holdMs;
  k.maxWait = Math.max(k.maxWait, r.waitMs);
  if (r.waitMs > 10_000) k.over10s += 1;
}
console.log('kind    holds  wait total s  wait max s  waits >10 s  held total s');
for (const [kind, k] of Object.entries(kinds)) {
  console.log(`${kind.padEnd(7)} ${String(k.n).padStart(5)} ${s(k.wait).padStart(13)} ${s(k.maxWait).padStart(11)} ${String(k.over10s).padStart(12)} ${s(k.hold).padStart(13)}`);
}
const top = flag === '--top' ? Number(n) : 0;
for (const r of [...rows].sort((a, b) => b.waitMs - a.waitMs).slice(0, top)) {
  console.log(`${s(r.waitMs).padStart(7)} s wait  ${s(r.holdMs).padStart(7)} s held  ${r.kind}  ${r.file ?? '?'} > ${r.test ?? '?'}`);
}
