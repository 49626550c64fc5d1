import { describe, expect, it } from 'vitest';
import { cpuLine, cpuLines, parseProcStat } from './procstat.js';

const PREV = `cpu  1000 100 500 8000 200 50 50 100 300 0
cpu0 500 50 250 4000 100 25 25 50 300 0
cpu1 500 50 250 4000 100 25 25 50 0 0
intr 123456 1 2 3
ctxt 987654
btime 1700000000
processes 4242
procs_running 3
procs_blocked 0
softirq 1 2 3
`;
// cpu0: +300 user (150 of it guest) +100 nice +200 system +300 idle +50 iowait +20 irq +20 softirq +10 steal = 1000 ticks.
// cpu1: +1000 idle. all = the sum of both.
const NEXT = `cpu  1300 200 700 9300 250 70 70 110 450 0
cpu0 800 150 450 4300 150 45 45 60 450 0
cpu1 500 50 250 5000 100 25 25 50 0 0
intr 123999 1 2 3
ctxt 999999
`;

describe('/proc/stat', () => {
  it('parses the aggregate and per-core lines, ignoring the rest', () => {
    const s = parseProcStat(PREV);
    expect([...s.keys()]).toEqual(['all', '0', '1']);
    expect(s.get('0')).toEqual({ user: 500, nice: 50, system: 250, idle: 4000, iowait: 100, irq: 25, softirq: 25, steal: 50, guest: 300, guestNice: 0 });
  });

  it('gives exact percentages per core and for all; usr = user + nice with guest left inside user', () => {
    const lines = cpuLines(parseProcStat(PREV), parseProcStat(NEXT));
    expect(lines).toEqual([
      { cpu: 'all', usr: 20, sys: 10, iowait: 2.5, irq: 1, soft: 1, steal: 0.5, idle: 65 },
      { cpu: '0', usr: 40, sys: 20, iowait: 5, irq: 2, soft: 2, steal: 1, idle: 30 },
      { cpu: '1', usr: 0, sys: 0, iowait: 0, irq: 0, soft: 0, steal: 0, idle: 100 },
    ]);
  });

  it('rounds to two decimals', () => {
    const z = { user: 0, nice: 0, system: 0, idle: 0, iowait: 0, irq: 0, softirq: 0, steal: 0, guest: 0, guestNice: 0 };
    expect(cpuLine('3', z, { ...z, user: 1, idle: 2 })).toEqual({ cpu: '3', usr: 33.33, sys: 0, iowait: 0, irq: 0, soft: 0, steal: 0, idle: 66.67 });
  });

  it('treats a counter going backwards as 0 and an empty interval as idle', () => {
    const a = parseProcStat('cpu0 100 0 100 100 50 0 0 0 0 0\n').get('0')!;
    const b = parseProcStat('cpu0 200 0 100 200 40 0 0 0 0 0\n').get('0')!;
    expect(cpuLine('0', a, b)).toEqual({ cpu: '0', usr: 50, sys: 0, iowait: 0, irq: 0, soft: 0, steal: 0, idle: 50 });
    expect(cpuLine('0', a, a)).toEqual({ cpu: '0', usr: 0, sys: 0, iowait: 0, irq: 0, soft: 0, steal: 0, idle: 100 });
  });

  it('reads old kernels with fewer columns, and drops a core that went offline', () => {
    const old = parseProcStat('cpu 10 0 10 80\ncpu0 10 0 10 80\ncpu1 0 0 0 100\n');
    expect(old.get('all')).toMatchObject({ user: 10, iowait: 0, steal: 0 });
    const next = parseProcStat('cpu 20 0 20 160\ncpu0 20 0 20 160\n');
    expect(cpuLines(old, next).map((l) => l.cpu)).toEqual(['all', '0']);
  });

  it('orders cores numerically', () => {
    const text = Array.from({ length: 12 }, (_, i) => `cpu${i} 1 0 0 1 0 0 0 0 0 0`).join('\n');
    const next = Array.from({ length: 12 }, (_, i) => `cpu${i} 2 0 0 2 0 0 0 0 0 0`).join('\n');
    expect(cpuLines(parseProcStat(`cpu 12 0 0 12\n${text}`), parseProcStat(`cpu 24 0 0 24\n${next}`)).map((l) => l.cpu)).toEqual([
      'all', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11',
    ]);
  });
});
