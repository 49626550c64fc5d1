import { describe, expect, it } from 'vitest';
import { arrivalRateAt, arrivalTime, arrivalsBy, meanArrivalRate, type ArrivalPlan } from './arrival.js';

const plan = (rate: number, rampTo?: number, spanSec = 60): ArrivalPlan => ({ rate, ...(rampTo !== undefined ? { rampTo } : {}), spanSec, maxSessions: 4, dropSlackMs: 25 });

describe('arrival schedule', () => {
  it('a constant rate spaces arrivals 1/rate apart', () => {
    const p = plan(50);
    expect(arrivalTime(p, 0)).toBe(0);
    expect(arrivalTime(p, 1)).toBeCloseTo(0.02, 12);
    expect(arrivalTime(p, 50)).toBeCloseTo(1, 12);
    expect(arrivalsBy(p, 10)).toBeCloseTo(500, 9);
    expect(meanArrivalRate(p, 3, 7)).toBeCloseTo(50, 9);
  });

  it('a ramp from 10 to 30 over 60 s schedules (10+30)/2·60 = 1200 arrivals and inverts exactly', () => {
    const p = plan(10, 30, 60);
    expect(arrivalsBy(p, 60)).toBeCloseTo(1200, 9);
    expect(arrivalRateAt(p, 30)).toBeCloseTo(20, 12);
    expect(arrivalRateAt(p, 90)).toBe(30);
    for (const k of [1, 7, 100, 599, 1200]) expect(arrivalsBy(p, arrivalTime(p, k))).toBeCloseTo(k, 6);
    // Past the ramp the rate stays at rampTo.
    expect(arrivalTime(p, 1230)).toBeCloseTo(61, 9);
    expect(meanArrivalRate(p, 0, 60)).toBeCloseTo(20, 9);
  });

  it('a downward ramp inverts too, and arrival times increase', () => {
    const p = plan(100, 20, 10);
    expect(arrivalsBy(p, 10)).toBeCloseTo(600, 9);
    let prev = -1;
    for (let k = 0; k <= 700; k += 7) {
      const t = arrivalTime(p, k);
      expect(t).toBeGreaterThan(prev);
      expect(arrivalsBy(p, t)).toBeCloseTo(k, 6);
      prev = t;
    }
  });
});
