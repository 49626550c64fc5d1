import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIELD_FLAGS, jobBody } from '../src/args.js';
import { shapeLines } from '../src/shapes.js';

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
});
