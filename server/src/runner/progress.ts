import type { BuildProgress } from '@sledge/protocol';
import type { JobContext } from '../engine/job-context.js';

/** A job's progress document, sent at most every 200 ms (always when forced). */
export class ProgressFeed {
  private last = 0;

  constructor(
    private readonly ctx: JobContext,
    readonly progress: BuildProgress,
  ) {}

  push(force = false): void {
    const now = Date.now();
    if (!force && now - this.last < 200) return;
    this.last = now;
    this.progress.ts = now;
    this.ctx.progress(structuredClone(this.progress));
  }

  worker(n: number): BuildProgress['workers'][number] {
    return this.progress.workers.find((x) => x.worker === n)!;
  }
}
