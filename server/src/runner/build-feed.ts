import type { ProgressFeed } from './progress.js';
import { buildVuStatus } from './build-vu-status.js';

/**
 * What the build workers of every workload tell the monitor, and what the
 * monitor does with it: output lines with HammerDB's VU status lines, rows
 * per table per worker in the progress document, the generator each used;
 * and the build's closing line (rows, rate, client CPU, generator).
 */
export type BuildWorkerMessage =
  | { t: 'log'; text: string }
  | { t: 'progress'; worker: number; table: string; rows: number }
  | { t: 'expected'; table: string; delta: number }
  | { t: 'done'; worker: number; generator: string }
  | { t: 'fatal' };

/**
 * The handler of the build workers' messages. `position` is where a progress
 * message says its worker is (TPROC-C's warehouse, TPROC-H's order index), or
 * null; `generators` collects the generator each worker used.
 */
export function buildMessages<M extends BuildWorkerMessage>(
  output: (vu: number, text: string) => void,
  feed: ProgressFeed,
  generators: Set<string>,
  position: (m: Extract<M, { t: 'progress' }>) => number | null,
): (vu: number, m: M) => void {
  const vuStatus = buildVuStatus(output);
  return (vu, m) => {
    switch (m.t) {
      case 'log':
        vuStatus.log(vu);
        output(vu, m.text);
        break;
      case 'progress': {
        const p = feed.worker(m.worker);
        p.rows[m.table] = (p.rows[m.table] ?? 0) + m.rows;
        const at = position(m as Extract<M, { t: 'progress' }>);
        if (at !== null) p.currentWarehouse = at;
        feed.push();
        break;
      }
      case 'expected':
        feed.progress.expected[m.table] = (feed.progress.expected[m.table] ?? 0) + m.delta;
        break;
      case 'done':
        vuStatus.done(vu);
        generators.add(m.generator);
        feed.worker(m.worker).done = true;
        feed.push(true);
        break;
    }
  };
}

/** `took S s: N rows (R rows/s), client CPU C s, generator G`, and the seconds since t0. */
export function buildTotals(feed: ProgressFeed, t0: number, cpu0: NodeJS.CpuUsage, generators: Set<string>): { secs: number; text: string } {
  const secs = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const loaded = feed.progress.workers.reduce((s, w) => s + Object.values(w.rows).reduce((a, b) => a + b, 0), 0);
  return {
    secs,
    text: `took ${secs.toFixed(1)} s: ${loaded} rows (${Math.round(loaded / secs)} rows/s), client CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s, generator ${[...generators].join('+') || 'n/a'}`,
  };
}
