import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CpuSample } from '@sledge/protocol';
import { diskRates, parseDiskStats, selectDisks, type DiskSnapshot } from './diskstats.js';
import { cpuLines, parseProcStat, type CpuSnapshot } from './procstat.js';

export interface CollectorOptions {
  /** Where proc is mounted (default /proc). */
  proc?: string;
  /** Where the whole block devices are listed (default /sys/block); unreadable = tell partitions by name. */
  sysBlock?: string;
  /** Monotonic clock in ms (tests inject one). */
  now?: () => number;
}

interface Snapshot {
  at: number;
  cpu: CpuSnapshot;
  disk: DiskSnapshot;
}

/**
 * Reads /proc/stat and /proc/diskstats and turns two readings into one
 * CpuSample: per-core and 'all' percentages, IOPS and MB/s over the time
 * between them. `prime()` takes the first reading; each `sample()` then
 * reports the interval since the previous call.
 */
export class CpuCollector {
  private prev: Snapshot | undefined;
  private readonly proc: string;
  private readonly sysBlock: string;
  private readonly now: () => number;

  constructor(o: CollectorOptions = {}) {
    this.proc = o.proc ?? '/proc';
    this.sysBlock = o.sysBlock ?? '/sys/block';
    this.now = o.now ?? (() => performance.now());
  }

  private async read(): Promise<Snapshot> {
    const [stat, disks] = await Promise.all([readFile(join(this.proc, 'stat'), 'utf8'), readFile(join(this.proc, 'diskstats'), 'utf8').catch(() => '')]);
    return { at: this.now(), cpu: parseProcStat(stat), disk: parseDiskStats(disks) };
  }

  private async wholeDevices(): Promise<Set<string> | undefined> {
    try {
      return new Set(await readdir(this.sysBlock));
    } catch {
      return undefined;
    }
  }

  async prime(): Promise<void> {
    this.prev = await this.read();
  }

  /** The interval since the previous reading (or since prime()); primes itself on the first call and then reports ~0 s. */
  async sample(): Promise<CpuSample> {
    if (!this.prev) await this.prime();
    const prev = this.prev!;
    const next = await this.read();
    this.prev = next;
    const disks = selectDisks(next.disk.keys(), await this.wholeDevices());
    const rates = diskRates(prev.disk, next.disk, disks, (next.at - prev.at) / 1000);
    return { ts: Date.now(), cpus: cpuLines(prev.cpu, next.cpu), iops: rates.iops, mbps: rates.mbps };
  }
}
