import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { CpuSample, validate } from '@sledge/protocol';
import { CpuCollector } from './collector.js';

describe('CpuCollector', () => {
  it('turns two readings of proc files into one sample (fixture)', async () => {
    const dir = await mkdtemp(join(os.tmpdir(), 'sledge-agent-'));
    try {
      const proc = join(dir, 'proc');
      const sys = join(dir, 'block');
      await mkdir(proc);
      await mkdir(sys);
      for (const d of ['vda', 'loop0']) await mkdir(join(sys, d));
      await writeFile(join(proc, 'stat'), 'cpu  0 0 0 0 0 0 0 0 0 0\ncpu0 0 0 0 0 0 0 0 0 0 0\n');
      await writeFile(join(proc, 'diskstats'), ' 253 0 vda 0 0 0 0 0 0 0 0 0 0 0\n 253 1 vda1 0 0 0 0 0 0 0 0 0 0 0\n 7 0 loop0 0 0 0 0 0 0 0 0 0 0 0\n');
      let clock = 5000;
      const c = new CpuCollector({ proc, sysBlock: sys, now: () => clock });
      await c.prime();
      await writeFile(join(proc, 'stat'), 'cpu  75 0 25 100 0 0 0 0 0 0\ncpu0 75 0 25 100 0 0 0 0 0 0\n');
      await writeFile(join(proc, 'diskstats'), ' 253 0 vda 30 0 1024 0 20 0 1024 0 0 0 0\n 253 1 vda1 30 0 1024 0 20 0 1024 0 0 0 0\n 7 0 loop0 999 0 99999 0 0 0 0 0 0 0 0\n');
      clock += 500;
      const s = await c.sample();
      expect(s.cpus).toEqual([
        { cpu: 'all', usr: 37.5, sys: 12.5, iowait: 0, irq: 0, soft: 0, steal: 0, idle: 50 },
        { cpu: '0', usr: 37.5, sys: 12.5, iowait: 0, irq: 0, soft: 0, steal: 0, idle: 50 },
      ]);
      // vda only: 50 IOs and 2048 sectors (1 MiB) in 0.5 s.
      expect(s.iops).toBe(100);
      expect(s.mbps).toBe(2);
      expect(validate(CpuSample, s)).toEqual(s);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("samples this machine: 'all' plus one line per core, each summing to ~100", async () => {
    const c = new CpuCollector();
    await c.prime();
    await sleep(300);
    const s = await c.sample();
    expect(validate(CpuSample, s)).toEqual(s);
    expect(s.cpus[0]!.cpu).toBe('all');
    expect(s.cpus.slice(1).map((l) => l.cpu)).toEqual(os.cpus().map((_, i) => String(i)));
    for (const l of s.cpus) {
      const sum = l.usr + l.sys + l.iowait + l.irq + l.soft + l.steal + l.idle;
      expect(Math.abs(sum - 100), `cpu ${l.cpu} sums to ${sum}`).toBeLessThanOrEqual(0.1);
    }
    expect(s.iops).toBeGreaterThanOrEqual(0);
    expect(s.mbps).toBeGreaterThanOrEqual(0);
    expect(Math.abs(s.ts - Date.now())).toBeLessThan(5000);
  });
});
