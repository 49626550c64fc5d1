import { ENGINE_DISPLAY, type EngineId } from '@sledge/protocol';

/** `TEST RESULT : System achieved <NOPM> NOPM from <TPM> <Engine> TPM` (hammerdb.md §6.6). */
export function resultLine(nopm: number, tpm: number, engine: EngineId): string {
  return `TEST RESULT : System achieved ${nopm} NOPM from ${tpm} ${ENGINE_DISPLAY[engine]} TPM`;
}

/** Per-minute rate of a cumulative counter over a window, floored like HammerDB's integer division. */
export function perMinute(delta: number, seconds: number): number {
  if (seconds <= 0) return 0;
  return Math.floor((Math.abs(delta) * 60) / seconds);
}

/**
 * Transaction counter value for one interval (hammerdb.md §8):
 * |Δ| · floor(60 / interval). The first sample is 0.
 */
export function tcountValue(prev: number | undefined, cur: number, intervalSec: number): number {
  if (prev === undefined) return 0;
  return Math.abs(cur - prev) * Math.floor(60 / intervalSec);
}
