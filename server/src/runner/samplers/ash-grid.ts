import type { AshSample, JobMetricsOptions } from '@sledge/protocol';

/**
 * The instants ASH samples are stamped with: one per interval on a fixed grid
 * from the first tick, never the same instant twice. A late timer (a busy
 * event loop) then neither puts two samples in one second nor leaves the
 * second before it empty, which would draw spikes above the vCPU line and
 * blank columns in a steady run.
 */
export class SamplingGrid {
  private origin: number | null = null;
  private last = 0;

  constructor(private readonly intervalMs: number) {}

  instant(now: number): number {
    if (this.origin === null) {
      this.origin = now;
      this.last = now;
      return now;
    }
    const snapped = this.origin + Math.round((now - this.origin) / this.intervalMs) * this.intervalMs;
    this.last = Math.max(snapped, this.last + this.intervalMs);
    return this.last;
  }
}

/** Background sleeps (`idle`) are activity only when the job asks for them (metrics.ashBackgroundIdle). */
export function countedSamples(samples: AshSample[], metrics: Pick<JobMetricsOptions, 'ashBackgroundIdle'>): AshSample[] {
  return metrics.ashBackgroundIdle ? samples : samples.filter((s) => !s.idle);
}
