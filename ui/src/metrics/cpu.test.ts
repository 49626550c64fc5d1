import { describe, expect, it } from 'vitest';
import type { CpuLine, CpuSample, SystemInfo } from '@sledge/protocol';
import { allCpu, busyPct, cores, databaseAgent, heatStrip, vcpusOf } from './cpu.js';

const line = (cpu: string, usr: number, sys = 0, idle = 100 - usr - sys): CpuLine => ({ cpu, usr, sys, iowait: 0, irq: 0, soft: 0, steal: 0, idle });
const sample = (ts: number, busy: number[]): CpuSample => ({ ts, cpus: [line('all', busy.reduce((a, b) => a + b, 0) / busy.length), ...busy.map((b, i) => line(String(i), b))], iops: 10, mbps: 1 });
const sys = (hostname: string, cpuCount: number): SystemInfo => ({ hostname, cpuModel: 'x', cpuCount, memoryBytes: 1, os: 'linux', kernel: '6' });

describe('cpu samples', () => {
  it('splits the all line from the cores, in core order', () => {
    const s: CpuSample = { ts: 1, cpus: [line('1', 5), line('all', 10), line('0', 15)], iops: 0, mbps: 0 };
    expect(cores(s).map((c) => c.cpu)).toEqual(['0', '1']);
    expect(allCpu(s).usr).toBe(10);
    expect(allCpu({ ...s, cpus: s.cpus.filter((c) => c.cpu !== 'all') }).usr).toBe(10);
    expect(busyPct(line('0', 30, 10))).toBe(40);
  });

  it('builds a cores x time strip of % busy: each sample spans the time since the one before', () => {
    const h = heatStrip([sample(1000, [10, 90]), sample(2000, [30, 50]), sample(4000, [70, 70])]);
    expect(h.cores).toEqual(['cpu0', 'cpu1']);
    expect(h.cells).toEqual([
      [0, 0, 10, 1000],
      [0, 1, 90, 1000],
      [1000, 0, 30, 2000],
      [1000, 1, 50, 2000],
      // A late sample covers the whole gap.
      [2000, 0, 70, 4000],
      [2000, 1, 70, 4000],
    ]);
  });

  it('averages long runs into at most 600 columns', () => {
    const long = Array.from({ length: 1200 }, (_, i) => sample((i + 1) * 1000, [i % 2 ? 100 : 0]));
    const w = heatStrip(long);
    expect(w.cells).toHaveLength(600);
    expect(w.cells[0]).toEqual([0, 0, 50, 2000]);
    expect(w.cells[599]![3]).toBe(1_200_000);
    expect(heatStrip([]).cells).toEqual([]);
  });

  it('picks the database host agent for the vCPU line', () => {
    const systems = { 'db1 (local)': sys('db1', 2), loadgen: sys('loadgen', 8), dbhost: sys('dbhost.example.com', 16) };
    const labels = Object.keys(systems).sort();
    expect(databaseAgent(labels, systems, '127.0.0.1')).toBe('db1 (local)');
    expect(databaseAgent(labels, systems, undefined)).toBe('db1 (local)');
    expect(databaseAgent(labels, systems, 'dbhost')).toBe('dbhost');
    expect(databaseAgent(['a', 'b'], { b: sys('pg.example.com', 4) }, 'pg.example.com')).toBe('b');
    expect(databaseAgent(['a', 'b'], {}, 'elsewhere')).toBe('a');
    expect(databaseAgent([], {}, 'x')).toBeUndefined();
    expect(vcpusOf([sample(1, [1, 2, 3])], sys('h', 8))).toBe(3);
    expect(vcpusOf(undefined, sys('h', 8))).toBe(8);
  });
});
