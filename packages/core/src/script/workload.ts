import { SledgeError, stepSlots, stepWindows, type ScriptJobConfig, type ScriptResult } from '@sledge/protocol';
import { arrivalPlanOf } from '../arrival.js';
import type { Driver } from '../driver.js';
import type { ParamSession } from '../param-session.js';
import { Rng, streamKey } from '../random.js';
import type { OpSession, OpStream, RunMonitor, VuPlan, VuWorkload } from '../shapes/vu.js';
import { ScriptClient, type ScriptIo } from './client.js';
import { parseScript, renderStatement, type Script, type SqlStatement } from './parse.js';
import type { ScriptRandom } from './dists.js';

/**
 * The script workload's VUs (docs/script-workload.md): each VU is a pgbench
 * client. For every transaction it draws a script by weight (pgbench's
 * `-f file@weight`), runs it on the driver's parameter session
 * (Driver.openParamSession), and counts it under that script's operation.
 * Variables live as long as the VU (pgbench keeps a client's variables from
 * one script to the next); `:client_id` is the VU's 0-based number, `:scale`
 * the job's scale (settled by the server before the run).
 */
export type ScriptRunOptions = ScriptJobConfig['script'];

/** What a VU's stream hands its session for one transaction. */
export interface ScriptInput {
  /** Seeds this transaction's random functions (deterministic per job seed, VU and transaction). */
  seed: number;
  /** The job's seed: :random_seed and :default_seed. */
  jobSeed: number;
  scale: number;
}

function plan(o: ScriptRunOptions): VuPlan {
  return {
    ...(o.steps ? { steps: stepWindows(o.steps) } : {}),
    ...(o.arrival ? { arrival: arrivalPlanOf(o.arrival, o.rampup, o.duration) } : {}),
    // Step loads hold as many VU slots as the largest step; arrival mode one per session.
    vus: o.steps ? stepSlots(o.steps) : o.arrival ? o.arrival.maxSessions : o.vus,
    mode: 'timed',
    opsPerIteration: 1e9,
    iterations: 1,
    repeatDelayMs: 0,
    raiseError: false,
    paced: false,
    async: false,
    clients: 1,
    clientDelayMs: 0,
    userDelayMs: 0,
    workers: o.workers,
    // pgbench's --max-tries (default 1: a failed script run is counted and the VU goes on to its next one).
    maxTries: o.maxTries ?? 1,
    retryOn: o.retryOn ?? ['serialization'],
    rampupMinutes: o.rampup,
    durationMinutes: o.duration,
    timeProfile: false,
    monitorIntervalSec: 1,
  };
}

/** The job's scripts parsed (a syntax error names the script's field, line and column). */
export function parseJobScripts(o: ScriptRunOptions, prefix = 'script'): Script[] {
  return o.scripts.map((s, i) => parseScript(s.name, s.text, { field: `${prefix}.scripts[${i}].text` }));
}

/** The engine features the scripts need that a driver lacks: a SLEDGE_E_VALIDATION naming the script, before any run. */
export function checkScriptsOnDriver(scripts: readonly Script[], driver: Driver, prefix = 'script'): void {
  if (!driver.openParamSession) {
    throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', `the ${driver.engine} driver does not run scripts (it has no parameter session)`, { field: 'target.engine' });
  }
  // No pipeline protocol (SQLite, MySQL/MariaDB): refused rather than run one statement at a time, as pgbench refuses
  // a pipeline under -M simple; what such a script measures is pipelining.
  if (driver.paramPipelines) return;
  scripts.forEach((s, i) => {
    if (s.features.pipeline) {
      const line = s.commands.find((c) => c.k === 'pipeline')?.line ?? 1;
      const metas = s.commands.some((c) => c.k === 'pipeline' && c.op === 'sync') ? '\\startpipeline, \\syncpipeline and \\endpipeline' : '\\startpipeline and \\endpipeline';
      throw new SledgeError('SLEDGE_E_VALIDATION', `${s.name}:${line}: \\startpipeline: ${driver.engine} has no pipeline mode in its protocol (PostgreSQL has), and a pipelined script run one statement at a time would not measure what it says; run it on PostgreSQL, or remove ${metas} to run its statements one by one`, { field: `${prefix}.scripts[${i}].text` });
    }
  });
}

function stream(o: ScriptRunOptions, seed: number, position: number, client: number, scale: number): OpStream<ScriptInput> {
  const rng = new Rng(streamKey(seed, 0x5c41, position, client));
  const weights = o.scripts.map((s) => s.weight);
  const total = weights.reduce((a, b) => a + b, 0);
  return {
    next() {
      let r = rng.int(1, total);
      let op = 0;
      while (r > weights[op]!) r -= weights[op++]!;
      return { op, input: { seed: rng.next(), jobSeed: seed, scale } };
    },
    keyingMs: () => 0,
    thinkMs: () => 0,
    describe: (op) => o.scripts[op]!.name,
  };
}

/** A ScriptIo on a parameter session: statements rendered once in the engine's placeholders. */
function sessionIo(s: ParamSession, log: (line: string) => void): ScriptIo {
  const rendered = new WeakMap<SqlStatement, string>();
  const text = (st: SqlStatement): string => {
    let t = rendered.get(st);
    if (t === undefined) rendered.set(st, (t = renderStatement(st, (n) => s.placeholder(n))));
    return t;
  };
  return {
    query: (st, params) => s.run(text(st), params),
    begin: () => s.begin(),
    commit: () => s.commit(),
    rollback: () => s.rollback(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    debug: log,
    ...(s.pipeline
      ? {
          startPipeline: () => {
            const p = s.pipeline!();
            return { query: (st, params) => p.send(text(st), params), tx: (kind) => p.control(kind), sync: () => p.sync(), end: () => p.end() };
          },
        }
      : {}),
  };
}

/**
 * One VU's pgbench client, created at its first transaction (when the scale
 * and seed are known); each transaction's random functions are seeded by its
 * input. The JavaScript session and the native loop's feed
 * (server workloads/script/native-vus.ts) both draw through it, so both run
 * the same transactions for the same job seed.
 */
export class ScriptVuClient {
  private client: ScriptClient | undefined;
  private rng = new Rng(1);

  /** `clientId`: pgbench's 0-based :client_id (the VU's position - 2). */
  constructor(private readonly clientId: number) {}

  /** The client, its random source seeded for this transaction. */
  for(input: ScriptInput): ScriptClient {
    this.rng = new Rng(input.seed);
    if (!this.client) {
      const rand: ScriptRandom = { uniform: () => ((this.rng.next() >>> 5) * 67108864 + (this.rng.next() >>> 6)) / 9007199254740992 };
      const seed = BigInt(input.jobSeed);
      this.client = new ScriptClient(rand, { clientId: this.clientId, scale: input.scale, defaultSeed: seed, randomSeed: seed });
    }
    return this.client;
  }
}

/** One VU's session: its pgbench client on the driver's parameter session. */
class ScriptVuSession implements OpSession<ScriptInput> {
  private readonly client: ScriptVuClient;
  private readonly io: ScriptIo;

  constructor(private readonly s: ParamSession, private readonly scripts: Script[], clientId: number, log: (line: string) => void) {
    this.io = sessionIo(s, log);
    this.client = new ScriptVuClient(clientId);
  }

  async run(op: number, input: ScriptInput): Promise<'commit'> {
    await this.client.for(input).run(this.scripts[op]!, this.io);
    return 'commit';
  }

  close(): Promise<void> {
    return this.s.close();
  }
}

interface Reading {
  ts: number;
}

function monitor(driver: Driver, target: Parameters<Driver['openSession']>[0], o: ScriptRunOptions, log: (l: string) => void): RunMonitor<{ scale: number }, Reading, ScriptResult> {
  return {
    async serverVersion() {
      const s = await driver.openSession(target, log);
      try {
        return await s.serverVersion();
      } finally {
        await s.close();
      }
    },
    prepare: async () => ({
      params: { scale: Math.max(1, o.scale) },
      summary: `${o.scripts.length} script(s): ${o.scripts.map((s) => `${s.name}@${s.weight}`).join(', ')}; scale ${Math.max(1, o.scale)}`,
      runInfo: { scale: Math.max(1, o.scale) },
    }),
    read: async () => ({ ts: Date.now() }),
    // No engine counter: the live rates are the client's per-second samples (commits per script), so the monitor's sample carries only its time.
    live: (_r, ts) => ({ ts }),
    result(w) {
      const secs = w.seconds > 0 ? w.seconds : 1;
      const tps = Math.round((w.clientOps / secs) * 100) / 100;
      const scripts = o.scripts.map((s, i) => {
        const n = w.perOp?.[i] ?? 0;
        return { name: s.name, weight: s.weight, transactions: n, errors: w.errorsPerOp?.[i] ?? 0, tps: Math.round((n / secs) * 100) / 100 };
      });
      const failed = scripts.reduce((a, s) => a + s.errors, 0);
      const line = `TEST RESULT : System achieved ${tps} TPS (${w.clientOps} transactions, ${failed} failed in ${w.seconds.toFixed(1)} s, ${w.vus} VU)`;
      const lines = [line, ...scripts.map((s) => `Script ${s.name} (weight ${s.weight}): ${s.transactions} transactions, ${s.tps} TPS, ${s.errors} errors`)];
      const result: ScriptResult = {
        tps, transactions: w.clientOps, failed, measuredSeconds: Math.round(w.seconds * 10) / 10, activeVus: w.vus, scale: Math.max(1, o.scale), scripts, line,
        ...(w.clientCpuMsPer1000 !== undefined ? { clientCpuMsPer1000: w.clientCpuMsPer1000 } : {}),
      };
      return { result, lines };
    },
    afterRun: async () => undefined,
    close: async () => undefined,
  };
}

const BASE = { shape: 'vu' as const, id: 'script', name: 'Script (pgbench)' };

/** The workload for one job's options: one operation per script. */
function forOptions(o: ScriptRunOptions): VuWorkload<ScriptRunOptions, { scale: number }, ScriptResult> {
  const names = o.scripts.map((s) => s.name);
  return {
    ...BASE,
    operations: names,
    operationLabels: names,
    operationTitles: names,
    vuPlan: plan,
    stream: (ctx) => stream(ctx.options, ctx.seed, ctx.position, ctx.client, ctx.params.scale) as OpStream,
    async openSession(driver, target, opts, options) {
      const scripts = parseJobScripts(options);
      checkScriptsOnDriver(scripts, driver);
      const s = await driver.openParamSession!(target, { name: `vu-${opts.vu}${opts.tag ? `-${opts.tag}` : ''}`, log: opts.log });
      return new ScriptVuSession(s, scripts, opts.vu - 2, opts.log) as OpSession;
    },
    openMonitor: async (ctx) => monitor(ctx.driver, ctx.target, ctx.options, ctx.log),
    headline: (r) => ({ metric: 'tps', value: r.tps, unit: 'TPS' }),
    forOptions,
  };
}

/** The script workload before a job's options are known (its operations come from forOptions). */
export const scriptWorkload: VuWorkload<ScriptRunOptions, { scale: number }, ScriptResult> = {
  ...forOptions({ scripts: [], vus: 1, rampup: 0, duration: 1, scale: 0, workers: 0 }),
};
