import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TproccGenerator, itemUnits, warehouseUnits } from '@sledge/core';
import type { SqliteTarget } from '@sledge/protocol';
import { driver } from '../index.js';

/** A target on a fresh temporary directory. */
export function tempTarget(name: string, over: Partial<SqliteTarget> = {}): SqliteTarget {
  const dir = mkdtempSync(join(tmpdir(), 'sledge-sqlite-'));
  return { engine: 'sqlite', file: join(dir, `${name}.sqlite`), busyTimeoutMs: 5000, synchronous: 'normal', ...over };
}

/** Build a complete W-warehouse schema through the driver (create, load, finish). */
export async function buildSchema(target: SqliteTarget, W = 1): Promise<void> {
  const log = () => undefined;
  const admin = await driver.workloads.tprocc.openAdmin(target, log);
  try {
    await admin.dropSchema();
    await admin.createSchema({ warehouses: W, buildVus: 1 });
    const gen = new TproccGenerator({ seed: 777, timestamp: '2026-01-01 00:00:00' }, 'tuples');
    const loader = await driver.workloads.tprocc.openLoader(target, log);
    try {
      for (const u of itemUnits()) await loader.load(gen.generate(u));
      for (let w = 1; w <= W; w++) for (const u of warehouseUnits(w)) await loader.load(gen.generate(u));
    } finally {
      await loader.close();
    }
    await admin.finishSchema({ warehouses: W, buildVus: 1 });
  } finally {
    await admin.close();
  }
}
