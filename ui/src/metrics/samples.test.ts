import { describe, expect, it } from 'vitest';
import { agentSystems, ashSamples, cpuBySource, latestStatuses, phasesOf, samplerStatuses } from './samples.js';

describe('metric samples by kind', () => {
  const metrics = {
    ash: [{ ts: 1, data: { ts: 1, session: '7', waitClass: 'CPU', event: 'CPU' } }],
    cpu: [
      { ts: 1, source: 'db (local)', data: { ts: 1, cpus: [], iops: 0, mbps: 0 } },
      { ts: 1, source: 'loadgen', data: { ts: 1, cpus: [], iops: 1, mbps: 0 } },
      { ts: 2, source: 'db (local)', data: { ts: 2, cpus: [], iops: 2, mbps: 0 } },
    ],
    phase: [{ ts: 5, data: { ts: 5, label: 'measuring' } }],
    sampler: [
      { ts: 1, data: { ts: 1, sampler: 'cpu', ok: false, reason: 'no CPU agent is connected', fix: 'start one' } },
      { ts: 1, data: { ts: 1, sampler: 'ash', ok: true, source: 'pg_stat_activity' } },
      { ts: 9, data: { ts: 9, sampler: 'ash', ok: false, reason: '10 consecutive samples failed' } },
    ],
  };

  it('reads each kind as typed data', () => {
    expect(ashSamples(metrics).map((s) => s.session)).toEqual(['7']);
    expect(phasesOf(metrics)).toEqual([{ ts: 5, label: 'measuring' }]);
    expect(Object.fromEntries(Object.entries(cpuBySource(metrics)).map(([k, v]) => [k, v.map((s) => s.iops)]))).toEqual({ 'db (local)': [0, 2], loadgen: [1] });
    expect(ashSamples({})).toEqual([]);
  });

  it('keeps the latest status of each sampler, with its reason and fix', () => {
    const s = latestStatuses(samplerStatuses(metrics));
    expect(s).toEqual([
      { ts: 1, sampler: 'cpu', ok: false, reason: 'no CPU agent is connected', fix: 'start one' },
      { ts: 9, sampler: 'ash', ok: false, reason: '10 consecutive samples failed' },
    ]);
  });

  it('keeps only agent system info', () => {
    const sys = { hostname: 'db', cpuModel: 'x', cpuCount: 2, memoryBytes: 1, os: 'linux', kernel: '6' };
    expect(agentSystems({ 'db (local)': sys, database: { version: '15' } })).toEqual({ 'db (local)': sys });
    expect(agentSystems(undefined)).toEqual({});
  });
});
