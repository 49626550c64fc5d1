/** The counters of one /proc/diskstats line Sledge uses (Documentation/admin-guide/iostats.rst). */
export interface DiskCounters {
  readsCompleted: number;
  sectorsRead: number;
  writesCompleted: number;
  sectorsWritten: number;
}

export type DiskSnapshot = Map<string, DiskCounters>;

/** Parse /proc/diskstats: major minor name, then the counters (14, 18 or 20 of them by kernel version). */
export function parseDiskStats(text: string): DiskSnapshot {
  const out: DiskSnapshot = new Map();
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10) continue;
    const n = (i: number) => Number(f[i]);
    out.set(f[2]!, { readsCompleted: n(3), sectorsRead: n(5), writesCompleted: n(7), sectorsWritten: n(9) });
  }
  return out;
}

/** Devices that are not disks: loop devices, RAM disks, compressed RAM (zram), optical and floppy drives. */
const NOT_A_DISK = /^(loop|ram|zram|sr|fd)\d+$/;
/** Stacked devices (device-mapper, software RAID): their IO is also counted on the disks below them. */
const STACKED = /^(dm-|md)\d+$/;
/** Partition names when /sys/block is not there to ask: sda1, vdb2, xvda1, nvme0n1p1, mmcblk0p1, nbd0p1. */
const PARTITION = /^(?:(?:sd|hd|vd|xvd)[a-z]+\d+|(?:nvme\d+n\d+|mmcblk\d+|nbd\d+|loop\d+)p\d+)$/;

/**
 * The devices whose IO is summed: whole disks only. Partitions are left out
 * (their IO is already in the disk's line), and so are loop, ram, zram, sr
 * and fd devices. Device-mapper (dm-*) and md devices stack on other disks,
 * so they count only when there is no other disk (e.g. a VM whose only
 * visible block devices are dm). `wholeDevices` is the content of
 * /sys/block when it can be read (it lists whole devices, never
 * partitions); without it partitions are told by their names.
 */
export function selectDisks(names: Iterable<string>, wholeDevices?: ReadonlySet<string>): string[] {
  const whole = [...names].filter((n) => (wholeDevices ? wholeDevices.has(n) : !PARTITION.test(n)) && !NOT_A_DISK.test(n));
  const real = whole.filter((n) => !STACKED.test(n));
  return (real.length > 0 ? real : whole).sort();
}

export interface DiskRates {
  /** Completed reads + writes per second. */
  iops: number;
  /** Megabytes (2^20 bytes, as iostat -m) read + written per second. */
  mbps: number;
}

/** Rates over `seconds` between two snapshots, summed over `disks`; counters that went backwards (a device reset) count 0. */
export function diskRates(prev: DiskSnapshot, next: DiskSnapshot, disks: readonly string[], seconds: number): DiskRates {
  if (seconds <= 0) return { iops: 0, mbps: 0 };
  let ios = 0;
  let sectors = 0;
  for (const name of disks) {
    const a = prev.get(name);
    const b = next.get(name);
    if (!a || !b) continue;
    const d = (k: keyof DiskCounters) => Math.max(0, b[k] - a[k]);
    ios += d('readsCompleted') + d('writesCompleted');
    sectors += d('sectorsRead') + d('sectorsWritten');
  }
  // /proc/diskstats counts 512-byte sectors whatever the device's block size.
  return { iops: Math.round((ios / seconds) * 10) / 10, mbps: Math.round(((sectors * 512) / 1048576 / seconds) * 100) / 100 };
}
