/**
 * Helpers shared by the client reference sections (pgref, mariaref) and the run-to-run spread section (cv):
 * option parsing, spread statistics, the home warehouses Sledge's VUs draw for a seed, one timed Sledge run.
 */
import { createServer } from 'node:net';
import { join } from 'node:path';

/** `--name value` or `--name=value`, else def. */
export const opt = (args, name, def) => {
  const eq = args.find((a) => a.startsWith(`--${name}=`));
  if (eq) return eq.slice(name.length + 3);
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : def;
};

/** The options of a reference section (pgref, mariaref): VUs, schema size, window, rounds, seed, VU loop. */
export function refOptions(args, quick) {
  return {
    vus: Number(opt(args, 'vus', 4)),
    warehouses: Number(opt(args, 'warehouses', quick ? 2 : 4)),
    rampup: Number(opt(args, 'rampup', quick ? 0.1 : 1)),
    duration: Number(opt(args, 'duration', quick ? 0.25 : 2)),
    rounds: Number(opt(args, 'rounds', 2)),
    seed: Number(opt(args, 'seed', 20261124)),
    vuLoop: opt(args, 'vu-loop', undefined),
  };
}

/** A free TCP port on 127.0.0.1 (for a server or nats-server the bench starts). */
export const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** Mean, sample standard deviation, coefficient of variation (%), min, max of a list of numbers. */
export function spread(xs) {
  const n = xs.length;
  const mean = xs.reduce((a, x) => a + x, 0) / n;
  const sd = n > 1 ? Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1)) : 0;
  return { n, mean, sd, cvPct: mean ? (sd / mean) * 100 : NaN, min: Math.min(...xs), max: Math.max(...xs) };
}

/**
 * The home warehouse and stock-level district of each VU of a run with this seed: Sledge's TproccVuInputs
 * (packages/core) draws them once per VU at position index + 2 (server/src/runner/vu-pool.ts).
 */
export async function vuHomes(ROOT, seed, warehouses, vus) {
  const { TproccVuInputs } = await import(join(ROOT, 'packages/core/dist/index.js'));
  const { DEFAULT_MIX } = await import(join(ROOT, 'packages/protocol/dist/index.js'));
  return Array.from({ length: vus }, (_, i) => {
    const w = new TproccVuInputs(seed, { warehouses, position: i + 2, activeVus: vus, allWarehouse: false, mix: DEFAULT_MIX });
    return { homeW: w.homeW, stockD: w.stockD };
  });
}

/** A random 32-bit seed, as the server draws one for a job without a seed. */
export const randomSeed = () => Math.floor(Math.random() * 0xffffffff);

/** The VU loop from the run's 'Virtual users run in ...' line: 'javascript', or the native loop's name. */
export const loopName = (line) => (!line ? '?' : /run in JavaScript/.test(line) ? 'javascript' : line.replace(/^Virtual users run in (the )?/, '').trim());

/** One timed Sledge run through the REST API; the result with the VU loop used and the job's seed. */
export async function sledgeRun(b, s, target, { vus, rampup, duration, seed, userDelayMs }) {
  const tprocc = { vus, rampup, duration, ...(userDelayMs !== undefined ? { userDelayMs } : {}) };
  const job = await b.submit(s, { type: 'run', target, tprocc, metrics: { ash: false, cpu: false }, ...(seed !== undefined ? { seed } : {}) });
  const out = await b.output(s, job.id);
  const loop = out.find((t) => t.startsWith('Virtual users run in')) ?? '';
  const r = job.result;
  const tx = r.transactions ?? 0;
  return {
    jobId: job.id,
    seed: job.config?.seed ?? seed,
    loop: loopName(loop),
    seconds: r.measuredSeconds,
    transactions: tx,
    tps: tx / r.measuredSeconds,
    nopm: r.nopm,
    tpm: r.tpm,
    clientCpuS: ((r.clientCpuMsPer1000Tx ?? NaN) * tx) / 1e6,
    msPer1000: r.clientCpuMsPer1000Tx,
  };
}

/**
 * The A/B report of a reference section: the rounds, the spread of client CPU per 1000 transactions of
 * each side, and Sledge's ratio to the reference. Stores it under results.sections[section].
 */
export function reportAB(b, { section, ref, refLabel, title, runs, fields }) {
  const { table, fmt, results } = b;
  const side = (c) => runs.filter((r) => r.client === c);
  const sl = spread(side('Sledge').map((r) => r.msPer1000));
  const rf = spread(side(ref).map((r) => r.msPer1000));
  const perRound = side('Sledge').map((r, i) => r.msPer1000 / side(ref)[i].msPer1000);
  const ratio = sl.mean / rf.mean;
  results.sections[section] = { ...fields, runs, sledge: sl, reference: rf, ratio, perRoundRatios: perRound };
  console.log(`\n${title}\n` + table(
    ['round', 'client', 'VU loop', 'measured s', 'transactions', 'TPS', 'NOPM', 'TPM', 'client CPU s', 'client ms/1000 tx', 'load 1 min'],
    runs.map((r) => [r.round, r.client, r.loop, fmt(r.seconds, 0), r.transactions, fmt(r.tps, 0), r.nopm, r.tpm, fmt(r.clientCpuS, 2), fmt(r.msPer1000, 1), r.load1 === undefined ? '-' : fmt(r.load1, 1)]),
  ));
  console.log(table(
    ['client ms/1000 tx', 'mean', 'min', 'max', 'CV %'],
    [
      ['Sledge', fmt(sl.mean, 1), fmt(sl.min, 1), fmt(sl.max, 1), fmt(sl.cvPct, 1)],
      [refLabel, fmt(rf.mean, 1), fmt(rf.min, 1), fmt(rf.max, 1), fmt(rf.cvPct, 1)],
    ],
  ));
  console.log(`Sledge / ${ref} client CPU per transaction: ${fmt(ratio, 2)}x (per round ${perRound.map((x) => fmt(x, 2) + 'x').join(', ')}; goal <= 1.1x)`);
}
