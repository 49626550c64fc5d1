import { join } from 'node:path';
import { JobStore } from '@sledge/jobstore';
import type { ClientSample, EngineSample, LatencySample, TimingRow, VuStatus } from '@sledge/protocol';
import { TX_PROC, TX_TYPES } from '@sledge/protocol';

/**
 * Write a finished 2-hour run straight into a job store, as the server would
 * have stored it: 7,200 engine samples (tcRefreshSec = 1), 7,200 client
 * samples, 7,200 latency samples and 100,000 output lines over 8 VUs. The
 * values are generated (a deterministic wave plus noise), and the job is
 * labelled as such; it exists to measure how the UI copes with a long job.
 */
export function writeLongJob(dataDir: string, opts: { seconds?: number; lines?: number } = {}): { jobId: string; seconds: number; lines: number; nopm: number } {
  const seconds = opts.seconds ?? 7200;
  const lineCount = opts.lines ?? 100_000;
  const vus = 8;
  const store = JobStore.open(join(dataDir, 'sledge.db'));
  try {
    const start = Date.UTC(2026, 0, 15, 8, 0, 0);
    const job = store.createJob({
      type: 'run',
      workload: 'tprocc',
      engine: 'postgresql',
      label: 'generated 2-hour run (UI performance fixture)',
      config: {
        type: 'run',
        workload: 'tprocc',
        target: { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: 'tpcc', password: '********', database: 'tpcc' },
        tprocc: { driver: 'timed', vus, rampup: 0, duration: seconds / 60, tcRefreshSec: 1 },
      },
      seed: 42,
      profileId: 0,
      clientVersion: 'sledge e2e fixture',
    });
    let r = 42;
    const rand = () => ((r = (r * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const wave = (i: number) => 1 + 0.15 * Math.sin(i / 300) + 0.05 * (rand() - 0.5);
    const engine: EngineSample[] = [];
    const client: ClientSample[] = [];
    const latency: LatencySample[] = [];
    for (let i = 0; i < seconds; i++) {
      const ts = start + (i + 1) * 1000;
      const w = wave(i);
      engine.push({ ts, tpm: i === 0 ? 0 : Math.round(60_000 * w), nopm: i === 0 ? 0 : Math.round(26_000 * w) });
      const rates = { neworder: 430 * w, payment: 430 * w, delivery: 43 * w, stocklevel: 43 * w, orderstatus: 43 * w };
      client.push({ ts, rates, commits: 980 * w, rollbacks: 4 * w, errors: 0, phase: 'measuring' });
      const perType: LatencySample['perType'] = {};
      for (const t of TX_TYPES) {
        const base = t === 'delivery' ? 9 : t === 'neworder' ? 6 : 3;
        perType[t] = { count: Math.round(rates[t]), p50: base * w, p95: base * 2.6 * w, p99: base * 4 * w, max: base * 9 * w };
      }
      latency.push({ ts, perType });
    }
    store.appendEngineSamples(job.id, engine);
    store.appendClientSamples(job.id, client);
    store.appendLatency(job.id, latency);
    for (let from = 0; from < lineCount; from += 10_000) {
      const lines = [];
      for (let i = from; i < Math.min(lineCount, from + 10_000); i++) {
        const vu = i % (vus + 2);
        lines.push({ vu, ts: start + Math.floor((i / lineCount) * seconds * 1000), text: vu === 0 ? `Vuser ${(i % vus) + 2}:RUNNING` : `VU ${vu} line ${i}: new order w_id=${(i % 10) + 1} d_id=${(i % 10) + 1} ol_cnt=${(i % 11) + 5}` });
      }
      store.appendOutput(job.id, lines);
    }
    const nopm = 26_000;
    const timings: TimingRow[] = TX_TYPES.map((t, k) => {
      const base = t === 'delivery' ? 9 : t === 'neworder' ? 6 : 3;
      return {
        proc: TX_PROC[t],
        vu: 0,
        calls: Math.floor(1_000_000 / (k + 1)),
        minMs: base / 5,
        avgMs: base * 1.2,
        maxMs: base * 40,
        totalMs: base * 1.2 * 1_000_000,
        p25Ms: base * 0.7,
        p50Ms: base,
        p75Ms: base * 1.6,
        p95Ms: base * 2.6,
        p99Ms: base * 4,
        sdMs: base,
        ratioPct: 40 / (k + 1),
        elapsedMs: seconds * 1000,
      };
    });
    store.setTimings(job.id, timings);
    const vuRows: VuStatus[] = Array.from({ length: vus }, (_, i) => ({ vu: i + 2, state: 'finished', commits: 880_000 + i, rollbacks: 3_500, errors: 0 }));
    store.setVus(job.id, vuRows);
    store.updateJob(job.id, { status: 'connecting', startedAt: new Date(start).toISOString() });
    store.updateJob(job.id, {
      status: 'completed',
      endedAt: new Date(start + (seconds + 1) * 1000).toISOString(),
      engineVersion: '15.20 (generated)',
      summary: `${nopm} NOPM, 60000 TPM, ${vus} VU`,
      result: {
        nopm,
        tpm: 60_000,
        activeVus: vus,
        tpmSource: 'engine',
        line: `TEST RESULT : System achieved ${nopm} NOPM from 60000 PostgreSQL TPM`,
        measuredSeconds: seconds,
      },
    });
    store.flush();
    return { jobId: job.id, seconds, lines: lineCount, nopm };
  } finally {
    store.close();
  }
}
