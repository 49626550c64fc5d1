import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseConnectPoolXml, SledgeError, type ConnectPool, type EngineId, type PoolImport } from '@sledge/protocol';

/**
 * The HammerDB command API's connect pool files. HammerDB reads
 * config/connectpool/<prefix>cpool.xml (pgcpool.xml, mariacpool.xml,
 * mysqlcpool.xml ...) when <prefix>_connect_pool is true; Sledge keeps them
 * in <data dir>/connectpool/ (SLEDGE_CONNECT_POOL_DIR overrides it), put
 * there by PUT /api/v1/pools/hammerdb/<prefix> or by hand. The files hold
 * passwords: written owner-only, never returned as is.
 */
export function connectPoolDir(dataDir: string): string {
  return process.env['SLEDGE_CONNECT_POOL_DIR'] || join(dataDir, 'connectpool');
}

const PREFIX = /^[a-z]{2,8}$/;

export function connectPoolFile(dataDir: string, prefix: string): string {
  if (!PREFIX.test(prefix)) throw new SledgeError('SLEDGE_E_VALIDATION', `prefix ${JSON.stringify(prefix)} must be a HammerDB database prefix (pg, maria, mysql, mssqls, ora, db2)`, { field: 'prefix' });
  return join(connectPoolDir(dataDir), `${prefix}cpool.xml`);
}

/** Check and store a pool file for `prefix` (replacing any); returns what it holds. */
export function saveConnectPool(dataDir: string, prefix: string, engine: EngineId, xml: string): PoolImport {
  const file = connectPoolFile(dataDir, prefix);
  const parsed = parseConnectPoolXml(xml, engine);
  mkdirSync(connectPoolDir(dataDir), { recursive: true, mode: 0o700 });
  writeFileSync(file, xml, { mode: 0o600 });
  chmodSync(file, 0o600);
  return parsed;
}

/** The stored pool file of `prefix`, parsed; null when there is none. */
export function readConnectPool(dataDir: string, prefix: string, engine: EngineId): PoolImport | null {
  const file = connectPoolFile(dataDir, prefix);
  if (!existsSync(file)) return null;
  return parseConnectPoolXml(readFileSync(file, 'utf8'), engine);
}

export function deleteConnectPool(dataDir: string, prefix: string): boolean {
  const file = connectPoolFile(dataDir, prefix);
  if (!existsSync(file)) return false;
  rmSync(file);
  return true;
}

/** The pool a command API run uses when <prefix>_connect_pool is true: the stored file, or a typed error saying where to put it. */
export function hammerdbPool(dataDir: string, prefix: string, engine: EngineId): ConnectPool {
  const got = readConnectPool(dataDir, prefix, engine);
  if (!got) {
    throw new SledgeError(
      'SLEDGE_E_VALIDATION',
      `${prefix}_connect_pool is true but there is no connect pool file ${prefix}cpool.xml: upload it with PUT /api/v1/pools/hammerdb/${prefix} (or copy it to ${connectPoolDir(dataDir)})`,
      { field: 'target.pool' },
    );
  }
  return got.pool;
}
