import { tprochHooks, type Driver } from '@sledge/core';
import type { TargetTestResult, TprochJobConfig } from '@sledge/protocol';

/** TPROC-H's schema on the target (the target test): whether its tables are there, and its scale factor (no warehouses). */
export async function schemaState(cfg: TprochJobConfig, driver: Driver): Promise<TargetTestResult['schema']> {
  const admin = await tprochHooks(driver).openAdmin(cfg.target, () => undefined);
  try {
    const state = await admin.schemaState();
    return { exists: state.exists, warehouses: 0, scaleFactor: state.scaleFactor };
  } finally {
    await admin.close();
  }
}
