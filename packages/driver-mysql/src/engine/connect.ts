import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import type { Connection, ConnectionOptions } from 'mysql2/promise';
import { SledgeError } from '@sledge/protocol';
import { connectError } from './errors.js';
import type { Flavour, MyTarget } from './flavour.js';

export type Mysql2 = typeof import('mysql2/promise');

let loaded: Promise<Mysql2> | undefined;

/** mysql2 is loaded on first use, so probe() can report a broken install instead of failing the import. */
export function loadMysql2(): Promise<Mysql2> {
  loaded ??= import('mysql2/promise').catch((e: unknown) => {
    loaded = undefined;
    throw e;
  });
  return loaded;
}

/** Installed mysql2 version, read from its package.json. */
export function mysql2Version(): string {
  const require = createRequire(import.meta.url);
  const pkg = require('mysql2/package.json') as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : 'unknown';
}

export const CONNECT_TIMEOUT_MS = 5000;

/** Prepared statements kept per connection (mysql2's LRU; evicted ones are closed and prepared again when used). */
export const MAX_PREPARED_STATEMENTS = 256;

export interface SessionOptions {
  /** Connect with target.database as the default database (false for the admin session). */
  useDatabase: boolean;
  /** `:name` placeholders (client-side statements). */
  namedPlaceholders?: boolean;
  /** LOAD DATA LOCAL: answers the server's file requests. */
  infileStreamFactory?: (path: string) => Readable;
  /** Announce the LOCAL_FILES capability (default true); false makes the server refuse LOCAL INFILE. */
  localFiles?: boolean;
  /** Shown in performance_schema.session_connect_attrs as sledge_role (none when absent). */
  role?: string;
  /** The program_name connection attribute (default 'sledge'); a query session's is sledge-<name>. */
  programName?: string;
}

function readTlsFile(path: string, field: string): Buffer {
  try {
    return readFileSync(path);
  } catch (e) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `Cannot read ${field} file ${path}: ${(e as Error).message}`, { field, cause: e });
  }
}

/**
 * mysql2 connection options for a target. Never multipleStatements: every
 * statement the driver sends is a single one (procedures are created one by
 * one, transactions are CALLs or single statements).
 */
export function connectionOptions(t: MyTarget, o: SessionOptions): ConnectionOptions {
  const opts: ConnectionOptions = {
    user: t.user,
    password: t.password,
    connectTimeout: CONNECT_TIMEOUT_MS,
    multipleStatements: false,
    dateStrings: true,
    supportBigNumbers: true,
    namedPlaceholders: o.namedPlaceholders ?? false,
    // No caller stack captured per query: it costs client CPU on every transaction.
    trace: false,
    // mysql2's statement cache preallocates its slots: the default of 16000 costs ~0.5 MB per
    // connection (5 GB at 10,000 async sessions). A VU prepares a handful of statements.
    maxPreparedStatements: MAX_PREPARED_STATEMENTS,
    connectAttributes: { program_name: o.programName ?? 'sledge', ...(o.role !== undefined ? { sledge_role: o.role } : {}) },
  };
  if (t.socket) opts.socketPath = t.socket;
  else {
    opts.host = t.host;
    opts.port = t.port;
  }
  if (o.useDatabase) opts.database = t.database;
  if (o.infileStreamFactory) opts.infileStreamFactory = o.infileStreamFactory;
  if (o.localFiles === false) opts.flags = ['-LOCAL_FILES'];
  if (t.ssl) {
    // Verified TLS: against target.sslCa when given, else the system CAs.
    const ssl: { ca?: Buffer; cert?: Buffer; key?: Buffer; rejectUnauthorized: boolean } = { rejectUnauthorized: true };
    if (t.sslCa) ssl.ca = readTlsFile(t.sslCa, 'target.sslCa');
    if (t.sslCert) ssl.cert = readTlsFile(t.sslCert, 'target.sslCert');
    if (t.sslKey) ssl.key = readTlsFile(t.sslKey, 'target.sslKey');
    opts.ssl = ssl;
  }
  return opts;
}

/** Open one connection; user-fixable failures become SledgeErrors (auth, connect, missing database). */
export async function connect(t: MyTarget, flavour: Flavour, o: SessionOptions): Promise<Connection> {
  const opts = connectionOptions(t, o);
  let mysql: Mysql2;
  try {
    mysql = await loadMysql2();
  } catch (e) {
    throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', `The mysql2 library does not load: ${(e as Error).message}. Run pnpm install.`, { cause: e });
  }
  try {
    const conn = await mysql.createConnection(opts);
    // An idle admin connection must not take the process down when the server drops it.
    conn.on('error', () => undefined);
    return conn;
  } catch (e) {
    throw connectError(e, t, flavour.display) ?? e;
  }
}
