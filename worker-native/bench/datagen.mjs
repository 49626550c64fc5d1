#!/usr/bin/env node
/**
 * Row generation speed, native addon vs core's TypeScript generator, one
 * thread, generation only (no I/O). Prints rows/s per table and the ratio.
 *
 *   node worker-native/bench/datagen.mjs [--format pg-text|csv] [--seconds 1.5] [--json]
 *
 * Needs `pnpm --filter @sledge/worker-native build` first (it reads dist/ and
 * build/Release/). Units are the ones a build uses; a customer unit also makes
 * HISTORY and an orders unit also ORDERS and NEW_ORDER, so those tables'
 * rates are measured over the whole unit.
 */
import { TproccGenerator } from '@sledge/core';
import { loadNativeGenerator } from '../dist/index.js';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : def;
};
const format = opt('format', 'pg-text');
const seconds = Number(opt('seconds', '1.5'));
const json = args.includes('--json');
if (format !== 'pg-text' && format !== 'csv') throw new Error(`--format must be pg-text or csv, not ${format}`);
if (!(seconds > 0 && seconds <= 10)) throw new Error('--seconds must be in (0, 10]');

const native = loadNativeGenerator();
if (!native.available) {
  console.error(`native addon unavailable: ${native.reason}`);
  process.exit(1);
}

const ctx = { seed: 20261122, timestamp: '2026-11-22 00:00:00' };
const range = (n, f) => Array.from({ length: n }, (_, i) => f(i));
/** Units per measured table, and which table's rows count. */
const CASES = [
  { table: 'item', units: range(10, (i) => ({ kind: 'item', from: i * 10000 + 1, to: (i + 1) * 10000 })) },
  { table: 'warehouse', units: range(200, (i) => ({ kind: 'warehouse', w: i + 1 })) },
  { table: 'stock', units: range(10, (i) => ({ kind: 'stock', w: 1, from: i * 10000 + 1, to: (i + 1) * 10000 })) },
  { table: 'district', units: range(200, (i) => ({ kind: 'district', w: i + 1 })) },
  { table: 'customer', note: '+history', units: range(10, (i) => ({ kind: 'customer', w: 1, d: i + 1 })) },
  { table: 'order_line', note: '+orders, new_order', units: range(10, (i) => ({ kind: 'orders', w: 1, d: i + 1 })) },
];

const ROUNDS = 3;

/** Generates units round-robin for `budgetNs`; returns rows of c.table and bytes of every table. */
function timed(gen, c, budgetNs, start) {
  let rows = 0;
  let bytes = 0;
  let i = start;
  const t0 = process.hrtime.bigint();
  let elapsed = 0n;
  while (elapsed < budgetNs || i === start) {
    for (const t of gen.generate(c.units[i % c.units.length])) {
      if (t.table === c.table) rows += t.rows;
      bytes += typeof t.data === 'string' ? t.data.length : t.data.byteLength;
    }
    i++;
    elapsed = process.hrtime.bigint() - t0;
  }
  const s = Number(elapsed) / 1e9;
  return { rowsPerSec: rows / s, mbPerSec: bytes / s / 1e6, next: i };
}

/**
 * TS and native alternate in ROUNDS rounds of seconds/ROUNDS each; the best
 * round counts, so a burst of load on a shared machine hurts neither side.
 */
function compareCase(c) {
  const budgetNs = BigInt(Math.round((seconds / ROUNDS) * 1e9));
  const sides = {
    ts: { gen: new TproccGenerator(ctx, format), best: undefined, at: 0 },
    native: { gen: native.generator(ctx, format), best: undefined, at: 0 },
  };
  for (const side of Object.values(sides)) for (const u of c.units.slice(0, 2)) side.gen.generate(u); // warm-up: JIT, cached sets
  for (let r = 0; r < ROUNDS; r++) {
    for (const side of Object.values(sides)) {
      const m = timed(side.gen, c, budgetNs, side.at);
      side.at = m.next;
      if (!side.best || m.rowsPerSec > side.best.rowsPerSec) side.best = m;
    }
  }
  return { ts: sides.ts.best, native: sides.native.best };
}

const results = [];
for (const c of CASES) {
  const { ts, native: nat } = compareCase(c);
  results.push({ table: c.table, note: c.note ?? '', ts, native: nat, ratio: nat.rowsPerSec / ts.rowsPerSec });
}

if (json) {
  console.log(JSON.stringify({ bench: 'datagen', format, node: process.version, results }, null, 2));
} else {
  const fmt = (n) => Math.round(n).toLocaleString('en-US');
  const header = ['table', 'TS rows/s', 'native rows/s', 'native/TS', 'TS MB/s', 'native MB/s'];
  const rows = results.map((r) => [
    r.table + (r.note ? ` (${r.note})` : ''),
    fmt(r.ts.rowsPerSec),
    fmt(r.native.rowsPerSec),
    `${r.ratio.toFixed(1)}x`,
    r.ts.mbPerSec.toFixed(0),
    r.native.mbPerSec.toFixed(0),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(`datagen: TPROC-C row generation, ${format}, one thread, ${process.version} (native: ${native.path})`);
  console.log(line(header));
  for (const r of rows) console.log(line(r));
  console.log(`Best of ${ROUNDS} alternating rounds per side; MB/s counts every table a unit produces (TS: string length, native: bytes).`);
  console.log('warehouse and district units hold 1 and 10 rows: their native time is the Node-API call itself (a few µs, once per warehouse).');
}
