import { describe, expect, it } from 'vitest';
import { diskRates, parseDiskStats, selectDisks } from './diskstats.js';

const PREV = `   7       0 loop0 50 0 400 10 0 0 0 0 0 10 10 0 0 0 0 0 0
 252       0 zram0 10 0 80 0 20 0 160 0 0 1 1 0 0 0 0 0 0
  11       0 sr0 0 0 0 0 0 0 0 0 0 0 0
 253       0 vda 1000 10 80000 500 2000 20 160000 1500 0 2000 2000 0 0 0 0 0 0
 253       1 vda1 900 10 70000 400 1900 20 150000 1400 0 1900 1900 0 0 0 0 0 0
 254       0 dm-0 900 0 70000 400 1900 0 150000 1400 0 1900 1900
`;
// vda: +100 reads, +300 writes, +2048 sectors read, +6144 written over 2 s -> 200 IOPS, 4 MiB / 2 s = 2 MB/s.
const NEXT = `   7       0 loop0 150 0 1200 10 0 0 0 0 0 10 10 0 0 0 0 0 0
 252       0 zram0 10 0 80 0 920 0 7360 0 0 1 1 0 0 0 0 0 0
  11       0 sr0 0 0 0 0 0 0 0 0 0 0 0
 253       0 vda 1100 10 82048 520 2300 20 166144 1600 0 2100 2100 0 0 0 0 0 0
 253       1 vda1 1000 10 72048 420 2200 20 156144 1500 0 2000 2000 0 0 0 0 0 0
 254       0 dm-0 1000 0 72048 420 2200 0 156144 1500 0 2000 2000
`;

describe('/proc/diskstats', () => {
  it('parses reads, sectors read, writes and sectors written by device (11-, 14- and 18-counter lines)', () => {
    const s = parseDiskStats(PREV);
    expect(s.get('vda')).toEqual({ readsCompleted: 1000, sectorsRead: 80000, writesCompleted: 2000, sectorsWritten: 160000 });
    expect(s.get('dm-0')).toEqual({ readsCompleted: 900, sectorsRead: 70000, writesCompleted: 1900, sectorsWritten: 150000 });
    expect(s.size).toBe(6);
  });

  it('sums whole disks only: no partitions, loop, zram, sr; dm-* only when nothing else', () => {
    const names = ['loop0', 'zram0', 'sr0', 'vda', 'vda1', 'dm-0', 'sda', 'sda1', 'nvme0n1', 'nvme0n1p1', 'mmcblk0', 'mmcblk0p2', 'md0', 'xvdb', 'xvdb1'];
    expect(selectDisks(names)).toEqual(['mmcblk0', 'nvme0n1', 'sda', 'vda', 'xvdb']);
    // /sys/block lists whole devices: it wins over the names.
    expect(selectDisks(names, new Set(['loop0', 'zram0', 'vda', 'dm-0']))).toEqual(['vda']);
    expect(selectDisks(['loop0', 'dm-0', 'dm-1', 'md127'])).toEqual(['dm-0', 'dm-1', 'md127']);
    expect(selectDisks(['loop0', 'ram0'])).toEqual([]);
  });

  it('gives exact IOPS and MB/s over the interval', () => {
    const prev = parseDiskStats(PREV);
    const next = parseDiskStats(NEXT);
    const disks = selectDisks(next.keys());
    expect(disks).toEqual(['vda']);
    expect(diskRates(prev, next, disks, 2)).toEqual({ iops: 200, mbps: 2 });
    expect(diskRates(prev, next, disks, 0)).toEqual({ iops: 0, mbps: 0 });
  });

  it('counts a counter reset as 0 and ignores a disk missing from one reading', () => {
    const prev = parseDiskStats(NEXT);
    const next = parseDiskStats(PREV);
    expect(diskRates(prev, next, ['vda', 'sdz'], 1)).toEqual({ iops: 0, mbps: 0 });
  });
});
