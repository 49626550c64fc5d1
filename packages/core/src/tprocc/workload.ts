import { DEFAULT_KEY_THINK, ENGINE_DISPLAY, SledgeError, TX_PROC, TX_TYPES, isStandardMix, mixText, stepSlots, stepWindows, type Target, type TproccOptions, type TproccResult, type TxType } from '@sledge/protocol';
import type { Driver } from '../driver.js';
import { Reconnecting } from '../reconnecting.js';
import { arrivalPlanOf } from '../arrival.js';
import { tproccHooks, tproccTarget, type Counters } from './hooks.js';
import { TproccVuInputs, thinkSeconds, type TxInput } from './inputs.js';
import { perMinute, resultLine, tcountValue } from './result.js';
import { windowCount, windowReadings, type WindowCount } from '../counter-window.js';
import type { LiveSample, OpSession, OpStream, RunContext, RunMonitor, RunOutcome, RunWindow, SessionOptions, OpStreamContext, VuPlan, VuWorkload } from '../shapes/index.js';

/** What the TPROC-C monitor found before a run. */
export interface TproccParams {
  /** The schema's warehouse count (a run uses the schema's, not tprocc.warehouses). */
  warehouses: number;
}

/** Operation index of each transaction type (TX_TYPES order). */
export const TX_INDEX: Record<TxType, number> = Object.fromEntries(TX_TYPES.map((t, i) => [t, i])) as Record<TxType, number>;

const TITLES: Record<TxType, string> = {
  neworder: 'New Order',
  payment: 'Payment',
  delivery: 'Delivery',
  stocklevel: 'Stock Level',
  orderstatus: 'Order Status',
};

/** A transaction's input in words (test driver output). */
export function inputSummary(t: TxType, i: Record<string, unknown>): string {
  const cust = () => (i['byname'] ? `c_last ${String(i['c_last'])}` : `c_id ${String(i['c_id'])}`);
  switch (t) {
    case 'neworder':
      return `w_id ${String(i['w_id'])} d_id ${String(i['d_id'])} c_id ${String(i['c_id'])} ol_cnt ${String(i['ol_cnt'])}${i['rollback'] ? ' (invalid item: rollback)' : ''}`;
    case 'payment':
      return `w_id ${String(i['w_id'])} d_id ${String(i['d_id'])} c_w_id ${String(i['c_w_id'])} ${cust()} amount ${String(i['amount'])}`;
    case 'delivery':
      return `w_id ${String(i['w_id'])} carrier ${String(i['carrier_id'])}`;
    case 'stocklevel':
      return `w_id ${String(i['w_id'])} d_id ${String(i['d_id'])} threshold ${String(i['threshold'])}`;
    case 'orderstatus':
      return `w_id ${String(i['w_id'])} d_id ${String(i['d_id'])} ${cust()}`;
  }
}

/** A transaction type's keying and thinking times: the run's table (tprocc.keyThink), TPC-C's defaults for jobs stored before it. */
export function keyThinkOf(o: TproccOptions, t: TxType): { keyingSec: number; thinkMeanSec: number } {
  return o.keyThink?.[t] ?? DEFAULT_KEY_THINK[t];
}

/** One VU's TPROC-C transactions (hammerdb.md §6.2): the mix, inputs, keying and thinking times. */
class TproccStream implements OpStream<TxInput> {
  private readonly wl: TproccVuInputs;

  constructor(private readonly ctx: OpStreamContext<TproccOptions, TproccParams>) {
    const o = ctx.options;
    this.wl = new TproccVuInputs(ctx.seed, {
      warehouses: ctx.params.warehouses,
      position: ctx.position,
      activeVus: ctx.activeVus,
      allWarehouse: o.allWarehouse,
      mix: o.mix,
      client: ctx.client,
    });
  }

  next() {
    const t = this.wl.nextType();
    return { op: TX_INDEX[t], input: this.wl.input(t) };
  }

  keyingMs(op: number): number {
    if (!this.ctx.options.keyAndThink) return 0;
    const t = TX_TYPES[op]!;
    return Math.round(keyThinkOf(this.ctx.options, t).keyingSec * 1000);
  }

  thinkMs(op: number): number {
    if (!this.ctx.options.keyAndThink) return 0;
    const t = TX_TYPES[op]!;
    return Math.round(thinkSeconds(this.wl.rng, t, keyThinkOf(this.ctx.options, t).thinkMeanSec) * 1000);
  }

  describe(op: number, input: TxInput): string {
    return inputSummary(TX_TYPES[op]!, input as unknown as Record<string, unknown>);
  }

  banner(): string[] {
    const { options: o, activeVus, params } = this.ctx;
    const out: string[] = [];
    if (o.driver === 'timed') out.push(`Processing ${o.totalIterations} transactions with output suppressed...`);
    const ws = this.wl.warehouses;
    // HammerDB's line: "Warehouses = ceil(W / active VUs) out of W" (each VU's share, not W twice).
    if (ws) out.push(`Assigned ${ws.length} WIDs = ${ws.join(' ')} based on VU count ${activeVus}, Warehouses = ${Math.ceil(params.warehouses / activeVus)} out of ${params.warehouses}`);
    return out;
  }
}

/** The TPROC-C run monitor: schema check, NOPM/TPM counters (hammerdb.md §6.3, §6.5), the result. */
async function openMonitor(rc: RunContext<TproccOptions>): Promise<RunMonitor<TproccParams, Counters, TproccResult>> {
  const { driver, target, features, options: o } = rc;
  const hooks = tproccHooks(driver);
  const at = tproccTarget(target, o.schema);
  // The monitor's session survives the target's restarts and killed sessions like the VUs' do.
  const conn = new Reconnecting(await hooks.openAdmin(at, rc.log), () => hooks.openAdmin(at, rc.log), driver, rc.log);
  let W = 0;
  let prev: { tpm: number; nopm: number; ts: number; epoch?: string } | undefined;
  /** Every reading this monitor took (window boundaries and live ones), in order: a window spanning a counter reset is counted from them. */
  const history: { ts: number; c: Counters }[] = [];
  const read = async (): Promise<Counters> => {
    const c = await conn.use((a) => a.readCounters());
    history.push({ ts: Date.now(), c });
    return c;
  };
  /** The engine counter's advance over a window: end - start, or from the readings between when the counter was reset. */
  const engineCount = (start: Counters, end: Counters): WindowCount => {
    const span = windowReadings(history, (h) => h.c, start, end) ?? [
      { ts: 0, c: start },
      { ts: 1, c: end },
    ];
    return windowCount(span.map((h) => ({ ts: h.ts, value: h.c.tpm ?? 0, ...(h.c.epoch !== undefined ? { epoch: h.c.epoch } : {}) })));
  };
  /** NOPM and TPM between two readings (hammerdb.md §6.3); client-side TPM where the engine has no counter. */
  const figures = (w: RunWindow<Counters>) => {
    const { start, end, seconds: secs } = w;
    const nopm = perMinute(end.nopm - start.nopm, secs);
    const engine = features.tpmSource === 'engine' && end.tpm !== null && start.tpm !== null ? engineCount(start, end) : undefined;
    const tpm = engine ? perMinute(engine.count, secs) : perMinute(w.clientOps, secs);
    return { nopm, tpm, engine };
  };
  return {
    serverVersion: () => conn.use((a) => a.serverVersion()),
    async prepare() {
      const state = await conn.use((a) => a.schemaState());
      if (!state.exists || state.warehouses < 1) {
        throw new SledgeError('SLEDGE_E_SCHEMA_MISSING', 'there is no TPROC-C schema on the target: build one first (job type "build")', { field: 'target' });
      }
      W = state.warehouses;
      const summary = `${W} warehouses${o.allWarehouse ? ', all warehouses' : ''}${o.keyAndThink ? ', keying and thinking time' : ''}${isStandardMix(o.mix) ? '' : `, non-standard transaction mix (${mixText(o.mix)})`}`;
      return { params: { warehouses: W }, summary, runInfo: { warehouses: W } };
    },
    read,
    reconnects: () => conn.reconnects,
    live(c: Counters, ts: number, clientOps: number, interval: number): LiveSample {
      const tpmCounter = c.tpm ?? clientOps;
      // An interval across a counter reset (it went back, or its epoch changed) has no known count: 0, not |Δ|.
      const reset = prev !== undefined && c.tpm !== null && (tpmCounter < prev.tpm || (c.epoch !== undefined && prev.epoch !== undefined && c.epoch !== prev.epoch));
      const sample = {
        ts,
        tpm: reset ? 0 : tcountValue(prev?.tpm, tpmCounter, interval),
        nopm: prev ? perMinute(c.nopm - prev.nopm, (ts - prev.ts) / 1000) : 0,
      };
      prev = { tpm: tpmCounter, nopm: c.nopm, ts, ...(c.epoch !== undefined ? { epoch: c.epoch } : {}) };
      return sample;
    },
    windowFigures: (w) => {
      const { nopm, tpm } = figures(w);
      return { nopm, tpm };
    },
    result(w: RunWindow<Counters>): RunOutcome<TproccResult> {
      const { seconds: secs, vus } = w;
      const { nopm, tpm, engine } = figures(w);
      const line = resultLine(nopm, tpm, rc.engine);
      const lines = [o.asyncScale ? `${vus} VU * ${o.asyncClients} AC = ${vus * o.asyncClients} Active Sessions configured` : `${vus} Active Virtual Users configured`, line];
      if (features.tpmSource === 'client') lines.push(`${ENGINE_DISPLAY[rc.engine]} TPM is counted client-side: commits + rollbacks of the virtual users`);
      if (engine?.reset) {
        lines.push(
          `Warning: the ${ENGINE_DISPLAY[rc.engine]} transaction counter was reset during the measured window (${engine.why}): TPM is the sum of the monitor's ${engine.intervals - engine.dropped} interval(s) in which it did not go back${engine.dropped ? ` (${engine.dropped} interval(s) spanning the reset counted as 0)` : ''}, not end - start`,
        );
      }
      const standardMix = isStandardMix(o.mix);
      if (!standardMix) lines.push(`Transaction mix ${mixText(o.mix)}: not HammerDB's standard 10/10/1/1/1, so this NOPM is not comparable with HammerDB's standard runs`);
      const result: TproccResult = {
        nopm,
        tpm,
        activeVus: o.asyncScale ? vus * o.asyncClients : vus,
        sessions: o.asyncScale ? vus * o.asyncClients : vus,
        tpmSource: features.tpmSource,
        line,
        ...(engine?.reset ? { tpmCounterReset: true } : {}),
        measuredSeconds: Math.round(secs * 10) / 10,
        transactions: w.clientOps,
        warehouses: W,
        ...(w.clientCpuMsPer1000 !== undefined ? { clientCpuMsPer1000Tx: w.clientCpuMsPer1000 } : {}),
        mix: { ...o.mix },
        standardMix,
      };
      return { result, lines };
    },
    afterRun: () => conn.use((a) => a.afterRun()),
    close: () => conn.close(),
  };
}

async function openSession(driver: Driver, target: Target, opts: SessionOptions, options: TproccOptions): Promise<OpSession<TxInput>> {
  const s = await tproccHooks(driver).openVu(tproccTarget(target, options.schema), opts);
  const session: OpSession<TxInput> = {
    run: (op, input) => s.run(TX_TYPES[op]!, input as never),
    close: () => s.close(),
  };
  if (s.lastWaitMs) session.lastWaitMs = () => s.lastWaitMs!();
  return session;
}


function vuPlan(o: TproccOptions): VuPlan {
  const shape: Partial<VuPlan> = {};
  if (o.steps) shape.steps = stepWindows(o.steps);
  if (o.arrival) {
    shape.arrival = arrivalPlanOf(o.arrival, o.rampup, o.duration);
    // A capacity search starts at the arrival rate and steers it from there.
    if (o.capacity) Object.assign(shape, { capacity: o.capacity, arrival: { ...shape.arrival, steered: true } });
  }
  return {
    ...shape,
    // Step loads hold as many VU slots as the largest step; arrival mode one per session.
    vus: o.steps ? stepSlots(o.steps) : o.arrival ? o.arrival.maxSessions : o.vus,
    mode: o.driver,
    opsPerIteration: o.totalIterations,
    iterations: o.iterations,
    repeatDelayMs: o.repeatDelayMs,
    raiseError: o.raiseError,
    paced: o.keyAndThink,
    async: o.asyncScale,
    clients: o.asyncScale ? o.asyncClients : 1,
    clientDelayMs: o.asyncDelayMs,
    asyncVerbose: o.asyncScale && o.asyncVerbose === true,
    // Arrival sessions all stand ready from the start: the schedule, not a login delay, paces them.
    userDelayMs: o.arrival ? 0 : o.userDelayMs,
    workers: o.workers,
    rampupMinutes: o.rampup,
    durationMinutes: o.duration,
    timeProfile: o.timeProfile,
    monitorIntervalSec: o.tcRefreshSec,
    reconnect: o.reconnect ?? true,
    maxTries: o.maxTries ?? 1,
    retryOn: o.retryOn ?? ['serialization'],
  };
}

/** TPROC-C (HammerDB's TPC-C derived OLTP workload) as a VU workload. */
export const tproccWorkload: VuWorkload<TproccOptions, TproccParams, TproccResult> = {
  shape: 'vu',
  id: 'tprocc',
  name: 'TPROC-C',
  operations: TX_TYPES,
  operationLabels: TX_TYPES.map((t) => TX_PROC[t]),
  operationTitles: TX_TYPES.map((t) => TITLES[t]),
  rollbackIsOutcome: true,
  vuPlan,
  stream: (ctx) => new TproccStream(ctx),
  openSession,
  openMonitor,
  headline: (r) => ({ metric: 'nopm', value: r.nopm, unit: 'NOPM' }),
};
