import { join } from 'node:path';
import { JobStore } from '@sledge/jobstore';
import type { TprochQueryTime, TprochResult } from '@sledge/protocol';

/** Appendix A row 0 of TPC-H: the power stream's query order. */
const POWER_ORDER = [14, 2, 9, 20, 6, 17, 18, 8, 21, 13, 3, 22, 16, 4, 11, 15, 1, 10, 19, 5, 7, 12];

/**
 * Write two finished TPROC-H power runs straight into a job store, as the
 * server stores them (query metric samples, plans, result), for looking at
 * the job and compare pages without running a workload. The times are
 * generated (a deterministic formula, the second run with three slower
 * queries) and the jobs are labelled as generated fixtures.
 */
export function writeTprochJobs(dataDir: string): string[] {
  const store = JobStore.open(join(dataDir, 'sledge.db'));
  try {
    const ids: string[] = [];
    for (const [k, slower] of [[0, []], [1, [9, 18, 21]]] as [number, number[]][]) {
      const start = Date.UTC(2026, 0, 15, 9, 0, 0) + k * 3_600_000;
      const job = store.createJob({
        type: 'run',
        workload: 'tproch',
        engine: 'sqlite',
        label: `generated TPROC-H power run ${k + 1} (UI fixture)`,
        config: { type: 'run', workload: 'tproch', target: { engine: 'sqlite', file: 'tpch.sqlite' }, tproch: { scaleFactor: 0.01, mode: 'power', querySets: 1, dop: 2, refresh: true, explain: true } },
        seed: 7 + k,
        profileId: 0,
        clientVersion: 'sledge e2e fixture',
      });
      let t = start + 500;
      const samples: { ts: number; data: unknown }[] = [];
      const refresh: { ts: number; data: unknown }[] = [];
      refresh.push({ ts: t, data: { stream: 0, update: 1, fn: 'rf1', phase: 'start' } });
      t += 400;
      refresh.push({ ts: t, data: { stream: 0, update: 1, fn: 'rf1', phase: 'end', seconds: 0.4 } });
      const queries: TprochQueryTime[] = POWER_ORDER.map((q, i) => {
        const seconds = +((0.05 + ((q * 37) % 23) / 20) * (slower.includes(q) ? 2.5 : 1)).toFixed(5);
        samples.push({ ts: t, data: { stream: 0, set: 1, query: q, position: i + 1, phase: 'start' } });
        t += Math.round(seconds * 1000);
        const rows = q === 19 ? 1 : (q * 7) % 40 + 1;
        samples.push({ ts: t, data: { stream: 0, set: 1, query: q, position: i + 1, phase: 'end', seconds, rows } });
        t += 20;
        return { stream: 0, set: 1, query: q, position: i + 1, seconds, rows };
      });
      refresh.push({ ts: t, data: { stream: 0, update: 1, fn: 'rf2', phase: 'start' } });
      t += 300;
      refresh.push({ ts: t, data: { stream: 0, update: 1, fn: 'rf2', phase: 'end', seconds: 0.3 } });
      store.appendMetrics(job.id, 'tproch-query', samples);
      store.appendMetrics(job.id, 'tproch-refresh', refresh);
      store.appendMetrics(
        job.id,
        'tproch-plan',
        POWER_ORDER.map((q) => ({ ts: start + 100, data: { query: q, plan: `QUERY PLAN (generated fixture) for Q${q}\n|--SCAN lineitem\n\`--USE TEMP B-TREE FOR GROUP BY` } })),
      );
      const geomean = Math.exp(queries.reduce((a, q) => a + Math.log(q.seconds), 0) / queries.length);
      const result: TprochResult = {
        mode: 'power',
        scaleFactor: 0.01,
        standardScale: false,
        streams: 1,
        dop: 2,
        validation: false,
        queries,
        streamResults: [{ stream: 0, seconds: Math.round((t - start) / 1000), completedSets: 1, geomean, queriesReturningRows: 22 }],
        refreshes: [{ update: 1, rf1Seconds: 0.4, rf2Seconds: 0.3, orders: 15 }],
        geomean,
        elapsedSeconds: (t - start - 500) / 1000,
        powerAtSize: (3600 * 0.01) / Math.pow(queries.reduce((a, q) => a * q.seconds, 0.4 * 0.3), 1 / 24),
        metricsNote: 'generated fixture: Power@Size from the generated times',
        errors: 0,
        line: `Geometric mean of query times returning rows (22) is ${geomean.toFixed(5)}`,
      };
      store.updateJob(job.id, { status: 'running', startedAt: new Date(start).toISOString() });
      store.updateJob(job.id, { status: 'completed', endedAt: new Date(t + 200).toISOString(), engineVersion: '3.46.1 (generated)', summary: `power SF 0.01: geomean ${geomean.toFixed(5)} s`, result });
      ids.push(job.id);
    }
    store.flush();
    return ids;
  } finally {
    store.close();
  }
}
