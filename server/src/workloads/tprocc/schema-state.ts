import { tproccHooks, tproccTarget, type Driver } from '@sledge/core';
import type { TargetTestResult, TproccJobConfig } from '@sledge/protocol';

/** TPROC-C's schema on the target (the target test): whether its tables are there, and its warehouses. */
export async function schemaState(cfg: TproccJobConfig, driver: Driver): Promise<TargetTestResult['schema']> {
  const admin = await tproccHooks(driver).openAdmin(tproccTarget(cfg.target, cfg.tprocc.schema), () => undefined);
  try {
    return await admin.schemaState();
  } finally {
    await admin.close();
  }
}
