import type { RecordableHistogram } from 'node:perf_hooks';
import { createHistogram } from 'node:perf_hooks';
import { perMinute, resultLine, tcountValue, tproccHooks, tproccTarget } from '@sledge/core';
import { ENGINE_DISPLAY, METRIC_KINDS, SledgeError, TX_TYPES, type ClientSample, type ErrorInfo, type RunInfo, type TxType, type VuStatus } from '@sledge/protocol';
import type { Worker } from 'node:worker_threads';
import {
  CTRL_GO,
  CTRL_PHASE,
  CTRL_RUN,
  KINDS,
  K_COMMIT,
  K_ERROR,
  K_ROLLBACK,
  NTX,
  PHASE_DONE,
  PHASE_MEASURING,
  PHASE_RAMPUP,
  RUN_ABORT,
  RUN_STOP,
  VU_STATE,
  VU_STATE_NAMES,
  allocShared,
  counterIndex,
  sumCounters,
} from '../worker/layout.js';
import type { FromVuWorker, VuAssignment, VuProfile, VuWorkerData } from '../worker/messages.js';
import { chooseVuLoop } from '../worker/vu-loop-choice.js';
import type { JobBody } from './job-types.js';
import { latencySample, timingRows } from './timings.js';
import { startWorker } from './workers.js';

const MINUTE = 60_000;
/** Grace for VUs to finish their current transaction at the end of a run, before threads are terminated. */
const END_GRACE_MS = 10_000;
/** Grace after a user's stop: stop takes effect within a second. */
const STOP_GRACE_MS = 1_000;

interface WorkerHandle {
  worker: Worker;
  exited: Promise<number>;
  done: boolean;
}

/** Distribute VUs round-robin over worker threads; VU k starts k·userDelay ms after the first. */
export function assignVus(vus: number, workers: number, userDelayMs: number): VuAssignment[][] {
  const out: VuAssignment[][] = Array.from({ length: workers }, () => []);
  for (let i = 0; i < vus; i++) out[i % workers]!.push({ index: i, position: i + 2, startDelayMs: i * userDelayMs });
  return out;
}

const totals = (c: Int32Array, vus: number) => {
  const s = sumCounters(c, vus);
  let commits = 0;
  let rollbacks = 0;
  let errors = 0;
  const perType = {} as Record<TxType, number>;
  TX_TYPES.forEach((t, i) => {
    const cm = s[i * KINDS + K_COMMIT]!;
    const rb = s[i * KINDS + K_ROLLBACK]!;
    commits += cm;
    rollbacks += rb;
    errors += s[i * KINDS + K_ERROR]!;
    perType[t] = cm + rb;
  });
  return { commits, rollbacks, errors, perType, tx: commits + rollbacks };
};

/**
 * A TPROC-C run. Timed: rampup, then a measured window between two counter
 * snapshots taken by the monitor (hammerdb.md §6.3). Test: every VU runs
 * total_iterations transactions and prints each one.
 */
export const runJob: JobBody = async ({ ctx, cfg, driver, stop, cpus, samplers, vuLoop, pgVuAddonPath }) => {
  const o = cfg.tprocc;
  const target = tproccTarget(cfg.target, cfg.tprocc.schema);
  const features = driver.features(target);
  const timed = o.driver === 'timed';
  const mon = (text: string) => ctx.output(1, text);
  const admin = await tproccHooks(driver).openAdmin(target, mon);
  const timers: NodeJS.Timeout[] = [];
  const handles: WorkerHandle[] = [];
  const shared = allocShared(o.vus);
  const control = new Int32Array(shared.control);
  const counters = new Int32Array(shared.counters);
  const states = new Int32Array(shared.states);
  const setRun = (v: number) => {
    Atomics.store(control, CTRL_RUN, v);
    Atomics.notify(control, CTRL_RUN);
  };
  /** Records the final VU grid when the run ends on an error (set once the VUs exist). */
  let settleVus: (() => void) | null = null;
  /** The monitor's counter reading at a window boundary; a failure says which reading it was. */
  const monitorCount = async (which: 'start' | 'end') => {
    try {
      return await admin.readCounters();
    } catch (e) {
      const code = SledgeError.is(e) ? e.code : 'SLEDGE_E_DB';
      throw new SledgeError(code, `the monitor could not take the ${which} transaction count: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
  };
  try {
    const version = await admin.serverVersion();
    ctx.update({ engineVersion: version });
    mon(`DBVersion:${version}`);
    const state = await admin.schemaState();
    if (!state.exists || state.warehouses < 1) {
      throw new SledgeError('SLEDGE_E_SCHEMA_MISSING', 'there is no TPROC-C schema on the target: build one first (job type "build")', { field: 'target' });
    }
    const W = state.warehouses;
    const vus = o.vus;
    const loop = chooseVuLoop(vuLoop ?? 'auto', driver, target, o, pgVuAddonPath);
    // Native VUs run on their own threads: one worker thread hosts them all unless target workers are set.
    const nWorkers = loop.loop === 'native' ? Math.max(1, Math.min(vus, o.workers || 1)) : features.asyncSessions ? Math.max(1, Math.min(vus, o.workers || cpus)) : vus;
    Atomics.store(control, CTRL_PHASE, timed ? PHASE_RAMPUP : PHASE_MEASURING);
    if (timed) {
      mon(`${vus + 1} Virtual Users Created with Monitor VU`);
      ctx.output(0, 'Vuser 1:RUNNING');
    } else mon(`${vus} Virtual Users Created (test driver: ${o.totalIterations} transactions each)`);
    mon(`${vus} VU(s) on ${nWorkers} worker thread(s); ${W} warehouses${o.allWarehouse ? ', all warehouses' : ''}${o.keyAndThink ? ', keying and thinking time' : ''}`);
    mon(loop.line);
    ctx.metric(METRIC_KINDS.run, [{ ts: Date.now(), data: { warehouses: W, vus, workers: nWorkers } satisfies RunInfo }]);

    // --- VU workers -------------------------------------------------------
    const profiles: VuProfile[] = [];
    let failure: ErrorInfo | null = null;
    const intervalHists: Partial<Record<TxType, RecordableHistogram>> = {};
    let ready = 0;
    let resolveReady!: () => void;
    const allReady = new Promise<void>((r) => (resolveReady = r));
    let resolveAllDone!: () => void;
    const allDone = new Promise<void>((r) => (resolveAllDone = r));
    const markDone = (h: WorkerHandle) => {
      if (h.done) return;
      h.done = true;
      if (handles.every((x) => x.done)) resolveAllDone();
    };
    const groups = assignVus(vus, nWorkers, o.userDelayMs);
    for (const vusOfWorker of groups) {
      const data: VuWorkerData = {
        kind: 'vu',
        loop: loop.loop,
        ...(pgVuAddonPath !== undefined ? { pgVuAddonPath } : {}),
        engine: target.engine,
        target,
        seed: cfg.seed,
        warehouses: W,
        activeVus: vus,
        vus: vusOfWorker,
        opts: {
          driver: o.driver,
          totalIterations: o.totalIterations,
          keyAndThink: o.keyAndThink,
          allWarehouse: o.allWarehouse,
          raiseError: o.raiseError,
          iterations: o.iterations,
          repeatDelayMs: o.repeatDelayMs,
          mix: o.mix,
          asyncScale: o.asyncScale,
          asyncClients: o.asyncClients,
          asyncDelayMs: o.asyncDelayMs,
        },
        shared,
      };
      const handle = {} as WorkerHandle;
      const { worker, exited } = startWorker<VuWorkerData, FromVuWorker>('vu-worker', data, (m) => {
        switch (m.t) {
          case 'ready':
            if (++ready === groups.length) resolveReady();
            break;
          case 'log':
            ctx.outputMany(m.lines);
            break;
          case 'latency':
            for (const t of TX_TYPES) {
              const h = m.hist[t];
              if (!h) continue;
              const acc = (intervalHists[t] ??= createHistogram());
              acc.add(h);
            }
            break;
          case 'profile':
            profiles.push(...m.vus);
            break;
          case 'done':
            markDone(handle);
            break;
          case 'fatal':
            failure ??= m.error;
            setRun(RUN_ABORT);
            markDone(handle);
            break;
        }
      });
      Object.assign(handle, { worker, exited, done: false });
      worker.on('error', (e) => {
        failure ??= { code: 'SLEDGE_E_INTERNAL', message: `a VU worker crashed: ${e.message}` };
        setRun(RUN_ABORT);
        markDone(handle);
      });
      void exited.then(() => markDone(handle));
      handles.push(handle);
    }
    // Like HammerDB's vucreate before vurun: threads start and load their driver before the clock starts.
    await Promise.race([allReady, allDone, stop.promise]);
    Atomics.store(control, CTRL_GO, 1);
    Atomics.notify(control, CTRL_GO);
    samplers?.attachClient(shared.ash, vus);
    ctx.status(timed ? 'rampup' : 'running');

    // --- samplers ----------------------------------------------------------
    let phase: ClientSample['phase'] = timed ? 'rampup' : 'running';
    let prev = totals(counters, vus);
    let prevTs = Date.now();
    const perVu = (): VuStatus[] =>
      Array.from({ length: vus }, (_, i) => {
        let c = 0;
        let r = 0;
        let e = 0;
        for (let t = 0; t < NTX; t++) {
          c += Atomics.load(counters, counterIndex(i, t, K_COMMIT));
          r += Atomics.load(counters, counterIndex(i, t, K_ROLLBACK));
          e += Atomics.load(counters, counterIndex(i, t, K_ERROR));
        }
        return { vu: i + 2, state: VU_STATE_NAMES[Atomics.load(states, i)] ?? 'idle', commits: c, rollbacks: r, errors: e };
      });
    const clientTick = () => {
      const now = Date.now();
      const cur = totals(counters, vus);
      const dt = Math.max(0.001, (now - prevTs) / 1000);
      const rates = Object.fromEntries(TX_TYPES.map((t) => [t, Math.round(((cur.perType[t] - prev.perType[t]) / dt) * 10) / 10])) as ClientSample['rates'];
      ctx.clientSample({
        ts: now,
        rates,
        commits: Math.round(((cur.commits - prev.commits) / dt) * 10) / 10,
        rollbacks: Math.round(((cur.rollbacks - prev.rollbacks) / dt) * 10) / 10,
        errors: Math.round(((cur.errors - prev.errors) / dt) * 10) / 10,
        ...(phase ? { phase } : {}),
      });
      prev = cur;
      prevTs = now;
      const lat = latencySample(now, intervalHists);
      if (lat) ctx.latency(lat);
      for (const t of TX_TYPES) intervalHists[t]?.reset();
      ctx.vus(perVu());
    };
    timers.push(setInterval(clientTick, 1000));

    const interval = o.tcRefreshSec;
    let prevEngine: { tpm: number; nopm: number; ts: number } | undefined;
    let counterErrorShown = false;
    let engineBusy = false;
    const engineTick = async () => {
      if (engineBusy) return;
      engineBusy = true;
      try {
        const c = await admin.readCounters();
        const ts = Date.now();
        const tpmCounter = c.tpm ?? totals(counters, vus).tx;
        ctx.engineSample({
          ts,
          tpm: tcountValue(prevEngine?.tpm, tpmCounter, interval),
          nopm: prevEngine ? perMinute(c.nopm - prevEngine.nopm, (ts - prevEngine.ts) / 1000) : 0,
        });
        prevEngine = { tpm: tpmCounter, nopm: c.nopm, ts };
      } catch (e) {
        if (!counterErrorShown) mon(`Transaction counter error: ${e instanceof Error ? e.message : String(e)}`);
        counterErrorShown = true;
      } finally {
        engineBusy = false;
      }
    };
    void engineTick();
    timers.push(setInterval(() => void engineTick(), interval * 1000));

    const waitWorkers = async (graceMs: number) => {
      const t = setTimeout(() => {
        for (const h of handles) if (!h.done) void h.worker.terminate();
      }, graceMs);
      await allDone;
      clearTimeout(t);
    };
    let finalGrid = false;
    /** VUs whose thread was terminated, or that never started, end as finished; report the final grid. */
    const finalVus = () => {
      for (let i = 0; i < vus; i++) {
        const st = Atomics.load(states, i);
        if (st !== VU_STATE.finished && st !== VU_STATE.failed) Atomics.store(states, i, VU_STATE.finished);
      }
      ctx.vus(perVu());
      finalGrid = true;
    };
    settleVus = () => {
      if (!finalGrid) finalVus();
    };
    const stopVus = async (graceMs: number) => {
      setRun(RUN_STOP);
      await waitWorkers(graceMs);
      finalVus();
    };
    stop.onStop(() => setRun(RUN_STOP));

    if (!timed) {
      await Promise.race([allDone, stop.promise]);
      await stopVus(STOP_GRACE_MS);
      clientTick();
      for (const t of timers) clearInterval(t);
      if (failure) throw SledgeError.fromInfo(failure);
      const rows = timingRows(profiles, o.timeProfile);
      ctx.timings(rows);
      const tot = totals(counters, vus);
      ctx.output(0, 'ALL VIRTUAL USERS COMPLETE');
      mon(`Test driver complete: ${tot.commits} commits, ${tot.rollbacks} rollbacks, ${tot.errors} errors`);
      ctx.update({ summary: `test driver: ${tot.tx} transactions, ${tot.errors} errors` });
      return stop.requested ? 'stopped' : 'completed';
    }

    // --- timed: rampup ----------------------------------------------------
    /** Sleep through a phase, printing a mark at each whole minute; false when stopped or every VU ended. */
    const sleepMinutes = async (minutes: number, mark: (k: number) => string): Promise<boolean> => {
      const begin = performance.now();
      const end = begin + minutes * MINUTE;
      for (let k = 1; ; k++) {
        const until = Math.min(end, begin + k * MINUTE);
        const r = await Promise.race([stop.sleep(Math.max(0, until - performance.now())), allDone.then(() => 'all-done' as const)]);
        if (r === true || r === 'all-done') return false;
        if (k <= minutes) mon(mark(k));
        if (until >= end) return true;
      }
    };
    mon(`Beginning rampup time of ${o.rampup} minutes`);
    if (o.rampup > 0 && !(await sleepMinutes(o.rampup, (k) => `Rampup ${k} minutes complete ...`))) {
      return await endEarly();
    }
    mon('Rampup complete, Taking start Transaction Count.');
    const start = await monitorCount('start');
    const startClient = totals(counters, vus);
    const tStart = performance.now();
    const cpu0 = process.cpuUsage();
    Atomics.store(control, CTRL_PHASE, PHASE_MEASURING);
    phase = 'measuring';
    ctx.status('measuring');
    mon(`Timing test period of ${o.duration} in minutes`);
    if (!(await sleepMinutes(o.duration, (k) => `${k}  ...,`))) return await endEarly();
    mon('Test complete, Taking end Transaction Count.');
    const end = await monitorCount('end');
    const endClient = totals(counters, vus);
    const tEnd = performance.now();
    const cpu = process.cpuUsage(cpu0);
    Atomics.store(control, CTRL_PHASE, PHASE_DONE);
    phase = 'done';
    const secs = (tEnd - tStart) / 1000;
    const nopm = perMinute(end.nopm - start.nopm, secs);
    const clientTx = endClient.tx - startClient.tx;
    const tpm = features.tpmSource === 'engine' && end.tpm !== null && start.tpm !== null ? perMinute(end.tpm - start.tpm, secs) : perMinute(clientTx, secs);
    mon(o.asyncScale ? `${vus} VU * ${o.asyncClients} AC = ${vus * o.asyncClients} Active Sessions configured` : `${vus} Active Virtual Users configured`);
    const line = resultLine(nopm, tpm, target.engine);
    mon(line);
    if (features.tpmSource === 'client') mon(`${ENGINE_DISPLAY[target.engine]} TPM is counted client-side: commits + rollbacks of the virtual users`);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const cpuPer1000 = clientTx > 0 ? Math.round((cpuMs / clientTx) * 1000 * 100) / 100 : undefined;
    if (cpuPer1000 !== undefined) mon(`Client CPU: ${cpuPer1000} ms per 1000 transactions (${clientTx} transactions in ${secs.toFixed(1)} s)`);
    await stopVus(END_GRACE_MS);
    clientTick();
    for (const t of timers) clearInterval(t);
    if (failure) throw SledgeError.fromInfo(failure);
    const rows = timingRows(profiles, o.timeProfile);
    ctx.result(
      {
        nopm,
        tpm,
        activeVus: o.asyncScale ? vus * o.asyncClients : vus,
        tpmSource: features.tpmSource,
        line,
        measuredSeconds: Math.round(secs * 10) / 10,
        transactions: clientTx,
        warehouses: W,
        ...(cpuPer1000 !== undefined ? { clientCpuMsPer1000Tx: cpuPer1000 } : {}),
      },
      rows,
    );
    ctx.output(0, 'Vuser 1:FINISHED SUCCESS');
    ctx.output(0, 'ALL VIRTUAL USERS COMPLETE');
    try {
      await admin.afterRun();
    } catch (e) {
      mon(`Post-run maintenance failed: ${e instanceof Error ? e.message : String(e)}`);
    }
    return 'completed';

    async function endEarly(): Promise<'stopped'> {
      await stopVus(STOP_GRACE_MS);
      for (const t of timers) clearInterval(t);
      if (failure) throw SledgeError.fromInfo(failure);
      if (!stop.requested) {
        const f = perVu().filter((v) => v.state === 'failed').length;
        throw new SledgeError('SLEDGE_E_DB', f ? `all virtual users ended before the measured window ended (${f} failed): see the output` : 'all virtual users ended before the measured window ended', {});
      }
      mon('Run stopped before the end of the measured window: no result');
      ctx.output(0, 'Vuser 1:FINISHED SUCCESS');
      return 'stopped';
    }
  } finally {
    for (const t of timers) clearInterval(t);
    setRun(RUN_ABORT);
    await Promise.all(handles.map(async (h) => (h.done ? undefined : h.worker.terminate())));
    // A run that ended on an error (the monitor lost, a VU thread crashed) leaves no VU "running" in its record.
    settleVus?.();
    await admin.close();
  }
};
