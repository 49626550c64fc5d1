import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import type { SystemInfo } from '@sledge/protocol';

/** CPU model: x86 "model name", ARM "Model"/"Hardware", POWER "cpu", s390 "processor 0: ..."; else what Node reports. */
export function cpuModelFrom(cpuinfo: string): string | undefined {
  for (const key of ['model name', 'Model', 'Hardware', 'cpu model', 'cpu']) {
    const m = new RegExp(`^${key}\\s*:\\s*(.+)$`, 'm').exec(cpuinfo);
    if (m && m[1]!.trim()) return m[1]!.trim().replace(/\s+/g, ' ');
  }
  return undefined;
}

/** MemTotal of /proc/meminfo in bytes. */
export function memTotalFrom(meminfo: string): number | undefined {
  const m = /^MemTotal:\s+(\d+)\s*kB/m.exec(meminfo);
  return m ? Number(m[1]) * 1024 : undefined;
}

/** PRETTY_NAME of os-release(5), unquoted. */
export function prettyNameFrom(osRelease: string): string | undefined {
  const m = /^PRETTY_NAME=(.*)$/m.exec(osRelease);
  if (!m) return undefined;
  const v = m[1]!.trim().replace(/^(["'])(.*)\1$/, '$2');
  return v || undefined;
}

async function readOr(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return '';
  }
}

export interface SystemPaths {
  /** Where proc is mounted (tests point it at fixtures). */
  proc?: string;
  /** os-release files, first readable wins. */
  osRelease?: string[];
}

/**
 * What the agent tells the server about its host on connect (HammerDB's
 * DoDiscovery): host name, CPU model and count, memory, OS and kernel.
 */
export async function discoverSystem(paths: SystemPaths = {}): Promise<SystemInfo> {
  const proc = paths.proc ?? '/proc';
  const [cpuinfo, meminfo] = await Promise.all([readOr(join(proc, 'cpuinfo')), readOr(join(proc, 'meminfo'))]);
  let pretty: string | undefined;
  for (const f of paths.osRelease ?? ['/etc/os-release', '/usr/lib/os-release']) {
    pretty = prettyNameFrom(await readOr(f));
    if (pretty) break;
  }
  const cpus = os.cpus();
  const processors = (cpuinfo.match(/^processor\s*:/gm) ?? []).length;
  return {
    hostname: os.hostname(),
    cpuModel: cpuModelFrom(cpuinfo) ?? cpus[0]?.model ?? 'unknown',
    cpuCount: processors || cpus.length || 1,
    memoryBytes: memTotalFrom(meminfo) ?? os.totalmem(),
    os: pretty ?? `${os.type()} ${os.release()}`,
    kernel: os.release(),
  };
}
