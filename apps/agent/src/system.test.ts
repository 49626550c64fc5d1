import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cpuModelFrom, discoverSystem, memTotalFrom, prettyNameFrom } from './system.js';

describe('system discovery', () => {
  it('reads the CPU model of x86, ARM and POWER cpuinfo', () => {
    expect(cpuModelFrom('processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R)  Platinum 8375C CPU @ 2.90GHz\n')).toBe('Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz');
    expect(cpuModelFrom('processor\t: 0\nBogoMIPS\t: 50.00\n\nHardware\t: BCM2835\nModel\t\t: Raspberry Pi 4 Model B Rev 1.4\n')).toBe('Raspberry Pi 4 Model B Rev 1.4');
    expect(cpuModelFrom('processor\t: 0\ncpu\t\t: POWER9 (architected), altivec supported\n')).toBe('POWER9 (architected), altivec supported');
    expect(cpuModelFrom('processor\t: 0\n')).toBeUndefined();
  });

  it('reads MemTotal in bytes and PRETTY_NAME unquoted', () => {
    expect(memTotalFrom('MemTotal:        8036784 kB\nMemFree:  1 kB\n')).toBe(8036784 * 1024);
    expect(prettyNameFrom('NAME="Debian GNU/Linux"\nPRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n')).toBe('Debian GNU/Linux 12 (bookworm)');
    expect(prettyNameFrom("PRETTY_NAME='Alpine Linux v3.20'\n")).toBe('Alpine Linux v3.20');
    expect(prettyNameFrom('ID=x\n')).toBeUndefined();
  });

  it('discovers a host from proc and os-release files', async () => {
    const dir = await mkdtemp(join(os.tmpdir(), 'sledge-agent-'));
    try {
      await writeFile(join(dir, 'cpuinfo'), 'processor\t: 0\nmodel name\t: Test CPU\n\nprocessor\t: 1\nmodel name\t: Test CPU\n\nprocessor\t: 2\nmodel name\t: Test CPU\n');
      await writeFile(join(dir, 'meminfo'), 'MemTotal:        1024 kB\n');
      await writeFile(join(dir, 'os-release'), 'PRETTY_NAME="Test OS 1"\n');
      const s = await discoverSystem({ proc: dir, osRelease: [join(dir, 'missing'), join(dir, 'os-release')] });
      expect(s).toEqual({ hostname: os.hostname(), cpuModel: 'Test CPU', cpuCount: 3, memoryBytes: 1024 * 1024, os: 'Test OS 1', kernel: os.release() });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('describes this machine', async () => {
    const s = await discoverSystem();
    expect(s.cpuCount).toBe(os.cpus().length);
    expect(s.memoryBytes).toBeGreaterThan(0);
    expect(s.cpuModel.length).toBeGreaterThan(0);
    expect(s.os.length).toBeGreaterThan(0);
    expect(s.kernel).toBe(os.release());
  });
});
