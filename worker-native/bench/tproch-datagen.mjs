#!/usr/bin/env node
/**
 * TPROC-H row generation speed, native addon vs core's TypeScript generator,
 * one thread, generation only (no I/O): rows/s per table side by side and the
 * ratio (rows per CPU second, best of 3 alternating rounds), plus the cost
 * of building dbgen's 300 MiB text pool each way (wall time).
 *
 *   node worker-native/bench/tproch-datagen.mjs [--sf 1] [--format pg-text|csv] [--seconds 2] [--json] [--q1]
 *
 * --q1 also generates all of LINEITEM at the SF natively and checks TPC-H Q1
 * (delta 90) against dbgen's published SF 1 answer (answers/q1.out); only
 * meaningful with --sf 1.
 *
 * Needs `pnpm --filter @sledge/worker-native build` first (dist/ and build/Release/).
 * Both generators share one pool (built natively, installed in core), so only
 * row generation is compared; part units also make PARTSUPP and orders units
 * LINEITEM, so the paired tables are timed over the same units.
 */
import { TprochGenerator, buildTprochTextPool, tprochSizes, TPROCH_TEXT_POOL_SIZE } from '@sledge/core';
import { createTprochGenerator, tprochSharedPool } from '../dist/index.js';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : def;
};
const sf = Number(opt('sf', '1'));
const format = opt('format', 'pg-text');
const seconds = Number(opt('seconds', '2'));
const json = args.includes('--json');
if (format !== 'pg-text' && format !== 'csv') throw new Error(`--format must be pg-text or csv, not ${format}`);
if (!(seconds > 0 && seconds <= 30)) throw new Error('--seconds must be in (0, 30]');

const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;

let t0 = process.hrtime.bigint();
const pool = tprochSharedPool();
const poolNativeMs = ms(t0);
t0 = process.hrtime.bigint();
buildTprochTextPool(new Uint8Array(TPROCH_TEXT_POOL_SIZE));
const poolTsMs = ms(t0);

const native = await createTprochGenerator(sf, format, 'native');
const ts = new TprochGenerator(sf, format);
const sizes = tprochSizes(sf);
const chunks = (kind, n, per) => Array.from({ length: n }, (_, i) => ({ kind, from: i * per + 1, to: Math.min((i + 1) * per, sizes[kind]) })).filter((u) => u.from <= sizes[kind]);
const CASES = [
  { tables: ['supplier'], units: chunks('supplier', 10, 1000) },
  { tables: ['customer'], units: chunks('customer', 10, 2000) },
  { tables: ['part', 'partsupp'], units: chunks('part', 10, 2000) },
  { tables: ['orders', 'lineitem'], units: chunks('orders', 10, 5000) },
];

/**
 * Units round-robin for the budget; rows per table, bytes, and the process
 * CPU time spent (rates are per CPU second: on a shared, loaded machine wall
 * time measures the neighbours more than the generator).
 */
function timed(gen, c, budgetMs) {
  const rows = Object.fromEntries(c.tables.map((t) => [t, 0]));
  let bytes = 0;
  let i = 0;
  const start = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  let elapsed = 0;
  while (elapsed < budgetMs || i === 0) {
    for (const t of gen.generate(c.units[i % c.units.length])) {
      rows[t.table] += t.rows;
      bytes += typeof t.data === 'string' ? t.data.length : t.data.byteLength;
    }
    i++;
    elapsed = ms(start);
  }
  const cpu = process.cpuUsage(cpu0);
  return { rows, bytes, ms: elapsed, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/** Best rate (rows per CPU second) per table over alternating rounds. */
function rates(gen, c, budgetMs, best) {
  const r = timed(gen, c, budgetMs);
  for (const t of c.tables) best[t] = Math.max(best[t] ?? 0, (r.rows[t] / r.cpuMs) * 1000);
}

const results = [];
for (const c of CASES) {
  timed(native, c, 200); // warm-up
  timed(ts, c, 200);
  const n = {};
  const t = {};
  for (let round = 0; round < 3; round++) {
    rates(native, c, (seconds * 1000) / 3, n);
    rates(ts, c, (seconds * 1000) / 3, t);
  }
  for (const table of c.tables) {
    const nr = n[table];
    const tr = t[table];
    results.push({ table, nativeRowsPerSec: Math.round(nr), typescriptRowsPerSec: Math.round(tr), ratio: Number((nr / tr).toFixed(2)) });
  }
}

let q1;
if (args.includes('--q1')) {
  // Q1 (delta 90): per returnflag|linestatus over l_shipdate <= 1998-09-02.
  const sep = format === 'csv' ? '|' : '\t';
  const agg = new Map();
  const step = 50000;
  t0 = process.hrtime.bigint();
  for (let from = 1; from <= sizes.orders; from += step) {
    const [, li] = native.generate({ kind: 'orders', from, to: Math.min(from + step - 1, sizes.orders) });
    for (const line of Buffer.from(li.data).toString('latin1').split('\n')) {
      if (!line) continue;
      const f = line.split(sep);
      if (f[10] > '1998-09-02') continue;
      const key = `${f[8]}|${f[9]}`;
      const a = agg.get(key) ?? { qty: 0, base: 0, disc: 0, charge: 0n, d: 0, n: 0 };
      const price = Math.round(Number(f[5]) * 100);
      const d = Math.round(Number(f[6]) * 100);
      const tax = Math.round(Number(f[7]) * 100);
      a.qty += Number(f[4]);
      a.base += price;
      a.disc += price * (100 - d);
      a.charge += BigInt(price * (100 - d) * (100 + tax));
      a.d += d;
      a.n++;
      agg.set(key, a);
    }
  }
  const money = (micro) => {
    const cents = (micro + 5000n) / 10000n;
    return `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
  };
  const got = [...agg.entries()].sort().map(([k, a]) =>
    [k, a.qty.toFixed(2), (a.base / 100).toFixed(2), (a.disc / 1e4).toFixed(2), money(a.charge), (a.qty / a.n).toFixed(2), (a.base / 100 / a.n).toFixed(2), (a.d / 100 / a.n).toFixed(2), a.n].join('|'),
  );
  const want = [
    'A|F|37734107.00|56586554400.73|53758257134.87|55909065222.83|25.52|38273.13|0.05|1478493',
    'N|F|991417.00|1487504710.38|1413082168.05|1469649223.19|25.52|38284.47|0.05|38854',
    'N|O|74476040.00|111701729697.74|106118230307.61|110367043872.50|25.50|38249.12|0.05|2920374',
    'R|F|37719753.00|56568041380.90|53741292684.60|55889619119.83|25.51|38250.85|0.05|1478870',
  ];
  q1 = { seconds: Number((ms(t0) / 1000).toFixed(1)), rows: got, matchesSf1Answer: JSON.stringify(got) === JSON.stringify(want) };
}

if (json) {
  console.log(JSON.stringify({ sf, format, seconds, pool: { nativeMs: Math.round(poolNativeMs), typescriptMs: Math.round(poolTsMs), bytes: pool.length }, results, q1 }, null, 2));
} else {
  console.log(`TPROC-H SF ${sf}, ${format}, ${seconds} s per generator and table group (3 alternating rounds, best), one thread, rows per CPU second`);
  console.log(`text pool (${pool.length} bytes): native ${Math.round(poolNativeMs)} ms, TypeScript ${Math.round(poolTsMs)} ms`);
  console.log('table        native rows/s   TypeScript rows/s   ratio');
  for (const r of results) {
    console.log(`${r.table.padEnd(12)} ${String(r.nativeRowsPerSec).padStart(13)}   ${String(r.typescriptRowsPerSec).padStart(17)}   ${r.ratio.toFixed(2).padStart(5)}x`);
  }
  if (q1) {
    console.log(`Q1 over all LINEITEM rows (${q1.seconds} s): ${q1.matchesSf1Answer ? 'equals' : 'DIFFERS from'} dbgen's SF 1 answer`);
    for (const r of q1.rows) console.log(`  ${r}`);
  }
}
