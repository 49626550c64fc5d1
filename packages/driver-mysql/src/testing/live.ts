import { splitTproccFields, tproccTarget, type TproccTarget } from '@sledge/core';
import { MariadbTarget, MysqlTarget, parseTproccSchema, validate } from '@sledge/protocol';
import type { Connection } from 'mysql2/promise';
import { loadMysql2 } from '../engine/connect.js';

/**
 * Test-only helpers (not part of the build). The MariaDB server of this
 * machine: SLEDGE_MARIADB_URL, default mysql://root@127.0.0.1:3306.
 * Tests use only databases named sledge_mytest*.
 */
export const MARIADB_URL = process.env.SLEDGE_MARIADB_URL ?? 'mysql://root@127.0.0.1:3306';

interface UrlParts {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string | undefined;
}

export function parseMysqlUrl(url: string): UrlParts {
  const u = new URL(url);
  if (u.protocol !== 'mysql:' && u.protocol !== 'mariadb:') throw new Error(`expected a mysql:// URL, got ${u.protocol}`);
  const db = decodeURIComponent(u.pathname.replace(/^\//, ''));
  return {
    host: u.hostname || '127.0.0.1',
    port: u.port ? Number(u.port) : 3306,
    user: decodeURIComponent(u.username || 'root'),
    password: decodeURIComponent(u.password),
    database: db || undefined,
  };
}

/** A MariaDB target with TPROC-C schema options (extra may set either). */
export function mariadbTarget(database: string, extra: Partial<TproccTarget<MariadbTarget>> = {}, url = MARIADB_URL): TproccTarget<MariadbTarget> {
  const p = parseMysqlUrl(url);
  const { target: t, schema: s } = splitTproccFields('mariadb', extra);
  const target = validate(MariadbTarget, { engine: 'mariadb', host: p.host, port: p.port, user: p.user, password: p.password, database, ...t });
  return tproccTarget(target, parseTproccSchema('mariadb', s));
}

/** A MySQL target with TPROC-C schema options (extra may set either). */
export function mysqlTarget(database: string, extra: Partial<TproccTarget<MysqlTarget>> = {}, url = MARIADB_URL): TproccTarget<MysqlTarget> {
  const p = parseMysqlUrl(url);
  const { target: t, schema: s } = splitTproccFields('mysql', extra);
  const target = validate(MysqlTarget, { engine: 'mysql', host: p.host, port: p.port, user: p.user, password: p.password, database, ...t });
  return tproccTarget(target, parseTproccSchema('mysql', s));
}

/** A root connection to the test server, without a default database. */
export async function rootConnection(url = MARIADB_URL): Promise<Connection> {
  const p = parseMysqlUrl(url);
  const mysql = await loadMysql2();
  return mysql.createConnection({ host: p.host, port: p.port, user: p.user, password: p.password, dateStrings: true });
}
