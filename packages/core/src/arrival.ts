/**
 * Arrival schedule math for the open (arrival-rate) model: the rate starts at
 * `rate` per second and changes linearly to `rampTo` over `spanSec` seconds,
 * then stays there. Arrival k (0-based) is due when the cumulative count
 * N(t) = r0·t + (r1 - r0)·t²/(2·T) reaches k.
 */
export interface ArrivalPlan {
  /** Arrivals per second at the start. */
  rate: number;
  /** Arrivals per second at spanSec (linear in between); rate when absent. */
  rampTo?: number;
  /** Seconds over which the rate ramps (the run's rampup + duration). */
  spanSec: number;
  /** Sessions that take arrivals. */
  maxSessions: number;
  /** An arrival claimed later than this after its due time found every session busy: dropped. */
  dropSlackMs: number;
  /** The runner changes the rate during the run (a capacity search): the sessions read the schedule it publishes, not rate/rampTo. */
  steered?: boolean;
}

/** An arrival no session can start within this many ms of its due time is dropped (arrival.graceMs): the tolerance for the client's own scheduling delays (a busy thread), not a queue. */
export const ARRIVAL_GRACE_MS = 25;

/** A run's arrival plan from its options (`arrival` of TPROC-C or the script workload) over rampup + duration minutes. */
export function arrivalPlanOf(a: { rate: number; rampTo?: number | undefined; maxSessions: number; graceMs?: number | undefined }, rampupMin: number, durationMin: number): ArrivalPlan {
  return { rate: a.rate, ...(a.rampTo !== undefined ? { rampTo: a.rampTo } : {}), spanSec: (rampupMin + durationMin) * 60, maxSessions: a.maxSessions, dropSlackMs: a.graceMs ?? ARRIVAL_GRACE_MS };
}

/** The target rate (per second) at t seconds. */
export function arrivalRateAt(p: ArrivalPlan, t: number): number {
  const r1 = p.rampTo ?? p.rate;
  if (t >= p.spanSec || p.spanSec <= 0) return r1;
  return p.rate + ((r1 - p.rate) * Math.max(0, t)) / p.spanSec;
}

/** Arrivals due in [0, t] (the cumulative count N(t), not rounded). */
export function arrivalsBy(p: ArrivalPlan, t: number): number {
  if (t <= 0) return 0;
  const r1 = p.rampTo ?? p.rate;
  const T = p.spanSec;
  if (T <= 0) return r1 * t;
  const tt = Math.min(t, T);
  const n = p.rate * tt + ((r1 - p.rate) * tt * tt) / (2 * T);
  return t > T ? n + r1 * (t - T) : n;
}

/** When arrival k (0-based) is due, in seconds from the schedule's start: the inverse of arrivalsBy. */
export function arrivalTime(p: ArrivalPlan, k: number): number {
  if (k <= 0) return 0;
  const r0 = p.rate;
  const r1 = p.rampTo ?? p.rate;
  const T = p.spanSec;
  if (T <= 0) return k / r1;
  const nT = arrivalsBy(p, T);
  if (k > nT) return T + (k - nT) / r1;
  const a = (r1 - r0) / T;
  if (Math.abs(a) < 1e-12) return k / r0;
  // a/2·t² + r0·t - k = 0, the root in [0, T].
  return (-r0 + Math.sqrt(Math.max(0, r0 * r0 + 2 * a * k))) / a;
}

/** Mean target rate over [t0, t1] seconds. */
export function meanArrivalRate(p: ArrivalPlan, t0: number, t1: number): number {
  return t1 > t0 ? (arrivalsBy(p, t1) - arrivalsBy(p, t0)) / (t1 - t0) : arrivalRateAt(p, t0);
}
