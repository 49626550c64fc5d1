/**
 * pnpm bench startup [--rounds N]
 *
 * What a worker thread pays to import Sledge's packages: worker threads share no module instances,
 * so every VU and build worker imports them afresh. For each package, in a new worker thread that has
 * already imported the packages before it (its dependencies, as one-file bundles), the CPU and wall
 * time of importing the package itself two ways, alternating which goes first:
 * - one file:   dist/index.js, the package as one ES module (scripts/bundle-entry.mjs; protocol with
 *               typebox inside)
 * - per file:   dist/index.files.js, tsc's own entry, importing the package's files one by one (and,
 *               for protocol, typebox's ~680 files)
 * The per-file sum over the packages is what a build worker's imports cost before the bundling.
 */
import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const PACKAGES = [
  ['@sledge/protocol', 'packages/protocol'],
  ['@sledge/core', 'packages/core'],
  ['@sledge/sql', 'packages/sql'],
  ['@sledge/worker-native', 'worker-native'],
  ['@sledge/driver-mysql', 'packages/driver-mysql'],
  ['@sledge/driver-postgresql', 'packages/driver-postgresql'],
];

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  for (const u of workerData.before) await import(u);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await import(workerData.url);
  const c = process.cpuUsage(c0);
  parentPort.postMessage({ cpuMs: (c.user + c.system) / 1000, wallMs: performance.now() - t0 });
})().catch((e) => parentPort.postMessage({ error: String(e && e.stack || e) }));
`;

const measure = (before, url) =>
  new Promise((res, rej) => {
    const w = new Worker(WORKER, { eval: true, workerData: { before, url } });
    w.once('message', (m) => {
      void w.terminate();
      if (m.error) rej(new Error(m.error));
      else res(m);
    });
    w.once('error', rej);
  });

/** The median of a list of numbers (process-start.js uses it too). */
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export async function benchStartup({ ROOT, quick, args, table, fmt, log }) {
  const i = args.indexOf('--rounds');
  const rounds = Math.max(1, Number(i >= 0 ? args[i + 1] : quick ? 2 : 7));
  log(`== startup: importing each package in a new worker thread, one file vs per file (${rounds} rounds each, alternating)`);
  const url = (dir, file) => pathToFileURL(join(ROOT, dir, 'dist', file)).href;
  const out = [];
  for (let p = 0; p < PACKAGES.length; p++) {
    const [name, dir] = PACKAGES[p];
    const before = PACKAGES.slice(0, p).map(([, d]) => url(d, 'index.js'));
    const one = [];
    const files = [];
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? ['one', 'files'] : ['files', 'one'];
      for (const v of order) (v === 'one' ? one : files).push(await measure(before, url(dir, v === 'one' ? 'index.js' : 'index.files.js')));
    }
    out.push({ name, one, files });
  }
  const rows = out.map(({ name, one, files }) => {
    const [o, f] = [median(one.map((x) => x.cpuMs)), median(files.map((x) => x.cpuMs))];
    const span = (xs) => `${fmt(Math.min(...xs), 0)}-${fmt(Math.max(...xs), 0)}`;
    return [name, fmt(o, 0), span(one.map((x) => x.cpuMs)), fmt(f, 0), span(files.map((x) => x.cpuMs)), fmt(f / o, 1) + 'x', fmt(median(one.map((x) => x.wallMs)), 0), fmt(median(files.map((x) => x.wallMs)), 0)];
  });
  const sum = (k) => out.reduce((a, x) => a + median(x[k].map((y) => y.cpuMs)), 0);
  rows.push(['all six (a build worker imports these)', fmt(sum('one'), 0), '', fmt(sum('files'), 0), '', fmt(sum('files') / sum('one'), 1) + 'x', '', '']);
  console.log(
    '\nImport cost per worker thread, CPU ms (median of the rounds, min-max), each package after its dependencies\n' +
      table(['package', 'one file', 'min-max', 'per file', 'min-max', 'per file / one file', 'wall ms, one file', 'wall ms, per file'], rows),
  );
  return { rounds, packages: out, sumOneFileMs: sum('one'), sumPerFileMs: sum('files') };
}
