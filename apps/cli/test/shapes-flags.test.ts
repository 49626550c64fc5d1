import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIELD_FLAGS, jobBody } from '../src/args.js';
import { DEFAULT_CAPACITY_START, capacityLines, shapeLines } from '../src/shapes.js';

describe('run shape flags', () => {
  it('--steps START:DURATION:VUS, JSON and @file all give tprocc.steps', () => {
    const want = [
      { startAfterMin: 0, durationMin: 0.25, vus: 2 },
      { startAfterMin: 0.25, durationMin: 0.25, vus: 4 },
    ];
    expect((jobBody('run', { steps: '0:0.25:2, 0.25:0.25:4', duration: '0.5' })['tprocc'] as Record<string, unknown>)['steps']).toEqual(want);
    expect((jobBody('run', { steps: JSON.stringify(want) })['tprocc'] as Record<string, unknown>)['steps']).toEqual(want);
    const f = join(mkdtempSync(join(tmpdir(), 'shapes_')), 'steps.json');
    writeFileSync(f, JSON.stringify(want));
    expect((jobBody('run', { steps: '@' + f })['tprocc'] as Record<string, unknown>)['steps']).toEqual(want);
  });
  it('a malformed step names the flag and the step', () => {
    expect(() => jobBody('run', { steps: '0:1:2,1:1' })).toThrow(/--steps: step 2 "1:1" must be START_AFTER_MIN:DURATION_MIN:VUS/);
    expect(() => jobBody('run', { steps: '[{' })).toThrow(/--steps is not valid JSON/);
  });
  it('--arrival-rate, --arrival-ramp-to and --max-sessions give tprocc.arrival', () => {
    expect((jobBody('run', { 'arrival-rate': '50', 'arrival-ramp-to': '200', 'max-sessions': '64' })['tprocc'] as Record<string, unknown>)['arrival']).toEqual({ rate: 50, rampTo: 200, maxSessions: 64 });
    expect((jobBody('run', { 'arrival-rate': '5' })['tprocc'] as Record<string, unknown>)['arrival']).toEqual({ rate: 5 });
    expect((jobBody('run', { 'arrival-rate': '5', 'arrival-grace': '100' })['tprocc'] as Record<string, unknown>)['arrival']).toEqual({ rate: 5, graceMs: 100 });
    expect(() => jobBody('run', { 'max-sessions': '4' })).toThrow(/--max-sessions needs --arrival-rate/);
    expect(() => jobBody('run', { workload: 'tproch', 'arrival-rate': '4' })).toThrow(/--arrival-rate is a TPROC-C and script workload flag/);
  });
  it('server errors on the shape fields name the flags', () => {
    expect(FIELD_FLAGS['tprocc.steps']).toBe('--steps');
    expect(FIELD_FLAGS['tprocc.arrival.maxSessions']).toBe('--max-sessions');
  });
  it('prints steps and arrival figures', () => {
    expect(
      shapeLines({
        steps: [{ index: 1, vus: 2, startSec: 0, endSec: 15, nopm: 900, tpm: 2100, latency: { neworder: { p50: 1, p95: 2.5, p99: 4 } } }],
        arrival: { targetRate: 50, achievedRate: 49.8, sessionsUsed: 4, maxSessions: 8, dropped: 0, scheduled: 900, latencyFromIntended: true },
      }),
    ).toEqual(['Step 1: 2 VU, 0-15 s: 900 NOPM, 2100 TPM, neworder p95 2.5 ms', 'Arrival rate: target 50/s, achieved 49.8/s, sessions used 4 of 8, dropped 0 of 900 (latency from the intended start)']);
  });

  it('--capacity and its companions give tprocc.capacity on an arrival-rate run', () => {
    const t = (f: Record<string, string>) => jobBody('run', f)['tprocc'] as Record<string, unknown>;
    expect(t({ capacity: 'p95(neword)<20ms', 'capacity-start': '100', 'capacity-hold': '60', 'max-sessions': '16' })).toMatchObject({
      arrival: { rate: 100, maxSessions: 16 },
      capacity: { slo: 'p95(neword)<20ms', holdSeconds: 60 },
    });
    expect(t({ capacity: 'p99(payment)<50ms, error_rate<0.1%', 'capacity-max': '800', 'capacity-step': '10', 'capacity-tolerance': '10' })).toMatchObject({
      arrival: { rate: DEFAULT_CAPACITY_START },
      capacity: { slo: 'p99(payment)<50ms, error_rate<0.1%', maxRate: 800, stepSeconds: 10, tolerance: 0.1 },
    });
    expect(t({ capacity: 'p95(neword)<20ms', 'arrival-rate': '40' })['arrival']).toEqual({ rate: 40 });
  });
  it('a bad SLO names --capacity, the condition and its position before anything is sent', () => {
    expect(() => jobBody('run', { capacity: 'p95(neword)<20ms, p95(neword)<fast' })).toThrow(/--capacity condition 2 at character 19 "p95\(neword\)<fast"/);
    expect(() => jobBody('run', { 'capacity-hold': '60' })).toThrow(/--capacity-hold needs --capacity/);
    expect(() => jobBody('run', { capacity: 'p95(neword)<20ms', 'capacity-start': '5', 'arrival-rate': '5' })).toThrow(/--capacity-start and --arrival-rate both set the start rate/);
    expect(FIELD_FLAGS['tprocc.capacity.slo']).toBe('--capacity');
  });
  it('prints each probe and the verdict', () => {
    const lines = capacityLines({
      slo: 'p95(neword)<20ms',
      rate: 40,
      held: true,
      reason: '40/s passed and 80/s failed',
      latency: { neworder: { p50: 4, p95: 9.5, p99: 14, calls: 900 } },
      probes: [
        { index: 1, phase: 'bracket', rate: 40, startSec: 0, seconds: 4, achievedRate: 39.8, scheduled: 160, dropped: 0, passed: true, checks: [], latency: { neworder: { p50: 4, p95: 9, p99: 12, calls: 70 } } },
        { index: 2, phase: 'bracket', rate: 80, startSec: 4, seconds: 4, achievedRate: 70, scheduled: 320, dropped: 40, passed: false, checks: [{ expr: 'dropped<=1%', actual: 12.5, ok: false, message: '40 of 320 arrivals dropped (12.5%)' }], latency: {} },
      ],
    });
    expect(lines[0]).toMatch(/^Probe 1 bracket\s+40\/s\s+achieved 39.8\/s\s+dropped 0\/160\s+neworder p95 9 ms\s+PASS$/);
    expect(lines[1]).toContain('FAIL (40 of 320 arrivals dropped (12.5%))');
    expect(lines[2]).toBe('Capacity at SLO p95(neword)<20ms: 40/s HELD (40/s passed and 80/s failed)');
    expect(lines[3]).toMatch(/neworder\s+p50 4 ms\s+p95 9.5 ms\s+p99 14 ms\s+\(900 calls in the hold\)/);
  });
});
