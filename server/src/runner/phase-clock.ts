import type { StopToken } from '../engine/stop.js';

const MINUTE = 60_000;

/** The timed driver's clock: sleeps through a phase in whole minutes, ending early on a stop or when every VU ended. */
export class PhaseClock {
  constructor(
    private readonly stop: StopToken,
    private readonly allDone: Promise<void>,
    private readonly mon: (text: string) => void,
  ) {}

  /** Sleep through a phase, printing a mark at each whole minute; false when stopped or every VU ended. */
  async sleepMinutes(minutes: number, mark: (k: number) => string): Promise<boolean> {
    const begin = performance.now();
    const end = begin + minutes * MINUTE;
    for (let k = 1; ; k++) {
      const until = Math.min(end, begin + k * MINUTE);
      const r = await Promise.race([this.stop.sleep(Math.max(0, until - performance.now())), this.allDone.then(() => 'all-done' as const)]);
      if (r === true || r === 'all-done') return false;
      if (k <= minutes) this.mon(mark(k));
      if (until >= end) return true;
    }
  }
}
