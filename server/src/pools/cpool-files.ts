import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isSealed } from '@sledge/jobstore';
import { mapPoolXmlSecrets, poolOfXml, readPoolXmlAsync, secretFields, SledgeError, type ConnectPool, type EngineId, type PoolImport, type PoolXml } from '@sledge/protocol';
import { writePrivateFile } from '../files/private-file.js';

/**
 * The HammerDB command API's connect pool files. HammerDB reads
 * config/connectpool/<prefix>cpool.xml (pgcpool.xml, mariacpool.xml,
 * mysqlcpool.xml ...) when <prefix>_connect_pool is true; Sledge keeps them
 * in <data dir>/connectpool/ (SLEDGE_CONNECT_POOL_DIR overrides it), put
 * there by PUT /api/v1/pools/hammerdb/<prefix> or by hand.
 *
 * The files hold passwords: written owner-only (files/private-file.ts), and
 * each password element's text is sealed with the job store's key, as saved
 * configurations' secrets are ("sledge-enc:v1:...", the connection and field
 * authenticated), the rest of the file as it was. A file with plain
 * passwords (copied by hand, or from before encryption) is read as is and
 * rewritten sealed. Passwords are never returned.
 */
export function connectPoolDir(dataDir: string): string {
  return process.env['SLEDGE_CONNECT_POOL_DIR'] || join(dataDir, 'connectpool');
}

/** What seals and opens the files' secrets: the job store. */
export interface PoolSecrets {
  sealSecret(plain: string, label: string): string;
  openSecret(stored: string, label: string, field: string): string;
}

const PREFIX = /^[a-z]{2,8}$/;

const fileName = (prefix: string): string => {
  if (!PREFIX.test(prefix)) throw new SledgeError('SLEDGE_E_VALIDATION', `prefix ${JSON.stringify(prefix)} must be a HammerDB database prefix (pg, maria, mysql, mssqls, ora, db2)`, { field: 'prefix' });
  return `${prefix}cpool.xml`;
};

export function connectPoolFile(dataDir: string, prefix: string): string {
  return join(connectPoolDir(dataDir), fileName(prefix));
}

const label = (prefix: string, connection: string, field: string) => `connectpool.${prefix}.${connection}.${field}`;

/** The file's text with every non-empty password sealed. */
const sealed = (doc: PoolXml, prefix: string, engine: EngineId, secrets: PoolSecrets): string =>
  mapPoolXmlSecrets(doc, engine, (v, c, f) => (v === '' ? v : secrets.sealSecret(v, label(prefix, c, f)))).xml;

/** Check and store a pool file for `prefix` (replacing ours, if any), its passwords sealed; returns what it holds. */
export async function saveConnectPool(dataDir: string, prefix: string, engine: EngineId, xml: string, secrets: PoolSecrets): Promise<PoolImport> {
  const name = fileName(prefix);
  const doc = await readPoolXmlAsync(xml);
  const parsed = poolOfXml(doc, engine);
  writePrivateFile(connectPoolDir(dataDir), name, sealed(doc, prefix, engine, secrets), 'prefix');
  return parsed;
}

/** The stored pool file of `prefix`, parsed, its passwords opened; null when there is none. A file with plain passwords is rewritten sealed. */
export async function readConnectPool(dataDir: string, prefix: string, engine: EngineId, secrets: PoolSecrets): Promise<PoolImport | null> {
  const file = connectPoolFile(dataDir, prefix);
  if (!existsSync(file)) return null;
  const doc = await readPoolXmlAsync(readFileSync(file, 'utf8'));
  const got = poolOfXml(doc, engine);
  let plain = false;
  got.pool.connections.forEach((c, i) => {
    for (const f of secretFields(got.engine)) {
      const v = c[f];
      if (typeof v !== 'string' || v === '') continue;
      if (isSealed(v)) c[f] = secrets.openSecret(v, label(prefix, c.name, f), `pool.connections.${i}.${f}`);
      else plain = true;
    }
  });
  if (plain) {
    try {
      writePrivateFile(connectPoolDir(dataDir), fileName(prefix), sealed(doc, prefix, engine, secrets), 'prefix');
    } catch (e) {
      // A link or another user's file put there by hand is read, never rewritten.
      if (!(e instanceof SledgeError && e.code === 'SLEDGE_E_CONFLICT')) throw e;
    }
  }
  return got;
}

export function deleteConnectPool(dataDir: string, prefix: string): boolean {
  const file = connectPoolFile(dataDir, prefix);
  if (!existsSync(file)) return false;
  rmSync(file);
  return true;
}

/** The pool a command API run uses when <prefix>_connect_pool is true: the stored file, or a typed error saying where to put it. */
export async function hammerdbPool(dataDir: string, prefix: string, engine: EngineId, secrets: PoolSecrets): Promise<ConnectPool> {
  const got = await readConnectPool(dataDir, prefix, engine, secrets);
  if (!got) {
    throw new SledgeError(
      'SLEDGE_E_VALIDATION',
      `${prefix}_connect_pool is true but there is no connect pool file ${prefix}cpool.xml: upload it with PUT /api/v1/pools/hammerdb/${prefix} (or copy it to ${connectPoolDir(dataDir)})`,
      { field: 'target.pool' },
    );
  }
  return got.pool;
}
