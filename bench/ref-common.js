/**
 * Helpers shared by the client reference sections (pgref, mariaref) and the run-to-run spread section (cv):
 * option parsing, spread statistics, the home warehouses Sledge's VUs draw for a seed, one timed Sledge run.
 */
import { join } from 'node:path';

/** `--name value` or `--name=value`, else def. */
export const opt = (args, name, def) => {
  const eq = args.find((a) => a.startsWith(`--${name}=`));
  if (eq) return eq.slice(name.length + 3);
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : def;
};

/** Mean, sample standard deviation, coefficient of variation (%), min, max of a list of numbers. */
export function spread(xs) {
  const n = xs.length;
  const mean = xs.reduce((a, x) => a + x, 0) / n;
  const sd = n > 1 ? Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1)) : 0;
  return { n, mean, sd, cvPct: mean ? (sd / mean) * 100 : NaN, min: Math.min(...xs), max: Math.max(...xs) };
}

/**
 * The home warehouse and stock-level district of each VU of a run with this seed: Sledge's VuWorkload
 * (packages/core) draws them once per VU at position index + 2 (server/src/runner/vu-pool.ts).
 */
export async function vuHomes(ROOT, seed, warehouses, vus) {
  const { VuWorkload } = await import(join(ROOT, 'packages/core/dist/index.js'));
  const { DEFAULT_MIX } = await import(join(ROOT, 'packages/protocol/dist/index.js'));
  return Array.from({ length: vus }, (_, i) => {
    const w = new VuWorkload(seed, { warehouses, position: i + 2, activeVus: vus, allWarehouse: false, mix: DEFAULT_MIX });
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
