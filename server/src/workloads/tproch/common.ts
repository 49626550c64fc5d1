import { tprochHooks, type Driver, type TprochAdmin } from '@sledge/core';
import { ENGINE_DISPLAY, isStandardScale, type TprochJobConfig } from '@sledge/protocol';
import type { JobEnv } from '../../engine/job-types.js';

/** The schema's name in HammerDB's lines ("TPCH"). */
export function schemaLabel(cfg: TprochJobConfig): string {
  const t = cfg.target as Record<string, unknown>;
  return String(t['database'] ?? t['user'] ?? 'tpch').toUpperCase();
}

export const engineName = (cfg: TprochJobConfig): string => ENGINE_DISPLAY[cfg.target.engine];

/** SF as printed: "0.01 (non-standard)" for SFs outside the TPC-H list. */
export const sfText = (sf: number): string => (isStandardScale(sf) ? String(sf) : `${sf} (non-standard)`);

/** The monitor's admin session, its version line written, for the body's work. */
export async function withAdmin<R>(env: JobEnv<TprochJobConfig>, fn: (admin: TprochAdmin, mon: (text: string) => void) => Promise<R>): Promise<R> {
  const { ctx, driver } = env;
  const cfg = env.cfg;
  const mon = (text: string) => ctx.output(1, text);
  const admin = await tprochHooks(driver as Driver).openAdmin(cfg.target, mon);
  try {
    const version = await admin.serverVersion();
    ctx.update({ engineVersion: version });
    mon(`DBVersion:${version}`);
    return await fn(admin, mon);
  } finally {
    await admin.close();
  }
}
