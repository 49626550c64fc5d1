import type { CpuSample } from '@sledge/protocol';

/** One line per CPU, then the disks, in HammerDB's CLI style ("CPU all usr%-x sys%-y ..."). */
export function formatSample(s: CpuSample): string {
  const lines = s.cpus.map(
    (c) => `CPU ${c.cpu} usr%-${c.usr.toFixed(2)} sys%-${c.sys.toFixed(2)} iowait%-${c.iowait.toFixed(2)} irq%-${c.irq.toFixed(2)} soft%-${c.soft.toFixed(2)} steal%-${c.steal.toFixed(2)} idle%-${c.idle.toFixed(2)}`,
  );
  lines.push(`IOPS-${s.iops.toFixed(0)} MB/s-${s.mbps.toFixed(2)}`);
  return lines.join('\n');
}
