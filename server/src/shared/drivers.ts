import type { Driver } from '@sledge/core';
import { ENGINES, SledgeError, type EngineId, type Target } from '@sledge/protocol';

/**
 * The explicit driver map. Drivers load lazily so a worker thread only loads
 * the client library of the engine it drives, and a driver whose optional
 * native library is missing (Db2) costs nothing until asked for.
 */
/** Package and export name of each engine's driver. */
const MODULES: Record<EngineId, { pkg: string; name: string }> = {
  sqlite: { pkg: '@sledge/driver-sqlite', name: 'driver' },
  postgresql: { pkg: '@sledge/driver-postgresql', name: 'driver' },
  mysql: { pkg: '@sledge/driver-mysql', name: 'mysqlDriver' },
  mariadb: { pkg: '@sledge/driver-mysql', name: 'mariadbDriver' },
  mssql: { pkg: '@sledge/driver-mssql', name: 'driver' },
  oracle: { pkg: '@sledge/driver-oracle', name: 'driver' },
  db2: { pkg: '@sledge/driver-db2', name: 'driver' },
  duckdb: { pkg: '@sledge/driver-duckdb', name: 'driver' },
};

const loaders: Record<EngineId, () => Promise<Driver>> = Object.fromEntries(
  ENGINES.map((e) => [
    e,
    async () => {
      const m = (await import(MODULES[e].pkg)) as Record<string, unknown>;
      const d = m[MODULES[e].name] as Driver | undefined;
      if (!d || d.engine !== e) throw new Error(`${MODULES[e].pkg} does not export a ${e} driver as "${MODULES[e].name}"`);
      return d;
    },
  ]),
) as Record<EngineId, () => Promise<Driver>>;

const cache = new Map<EngineId, Promise<Driver>>();

export function loadDriver(engine: EngineId): Promise<Driver> {
  let p = cache.get(engine);
  if (!p) {
    p = loaders[engine]().catch((e: unknown) => {
      cache.delete(engine);
      throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', `the ${engine} driver does not load: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`, {
        field: 'target.engine',
        cause: e,
      });
    });
    cache.set(engine, p);
  }
  return p;
}

export async function driverFor<T extends Target>(target: T): Promise<Driver<T>> {
  return (await loadDriver(target.engine)) as unknown as Driver<T>;
}

