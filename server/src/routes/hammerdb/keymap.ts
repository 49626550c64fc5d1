import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { normalizeTproccSchema, type EngineId } from '@sledge/protocol';
import { keyName, type Dict, type Section } from './dicts.js';

/**
 * HammerDB dict keys -> Sledge job fields, per engine.
 *
 * Keys are written by suffix (keyName() adds the database prefix). Each entry
 * names the Sledge field (`target.<field>` from packages/protocol targets.ts,
 * `tprocc.<field>` from workloads/tprocc.ts, `tprocc.schema.<field>` from
 * workloads/tprocc-schema.ts: partitioning, stored procedures, tablespaces)
 * and how the string value converts.
 *
 * Keys with no Sledge equivalent are accepted by diset, stored and printed,
 * and otherwise ignored:
 *
 * | database  | ignored keys (why)                                                                                   |
 * |-----------|-------------------------------------------------------------------------------------------------------|
 * | all       | refresh_verbose, cloud_query,                                                                        |
 * |           | rs_compat, tpch_gpcompat/gpcompress, tpch_tspace, tpch_def_tab/temp, tpch_storage_engine, colstore,   |
 * |           | tpch_use_bcp, tpch_partition_orders_and_lineitems, tpch_advanced_stats, tpch_organizeby, ob_* (keys   |
 * |           | of schema variants Sledge's TPROC-H build does not make)                                              |
 * | ora       | rac (Sledge connects to one connect string), hash_clusters, tpcc_tt_compat (TimesTen)                 |
 * | mssqls    | tcp, authentication (Windows auth), msi_object_id, linux_authent, odbc_driver, linux_odbc (Sledge    |
 * |           | speaks TDS, no ODBC), imdb, bucket, durability (In-Memory OLTP schema)                                |
 * | db2       | def_user, def_pass, def_dbase (HammerDB's catalog connection), tab_list, monreport                   |
 * | mysql     | ssl_windows_capath, ssl_cipher, oceanbase_port                                                        |
 * | maria     | ssl_windows_capath, ssl_cipher                                                                        |
 * | pg        | dritasnap, oracompat (EDB), cituscompat                                                               |
 *
 * <prefix>_connect_pool (tpcc): when true, vurun reads the stored <prefix>cpool.xml (HammerDB's
 * config/connectpool file; PUT /api/v1/pools/hammerdb/<prefix>, kept in <data dir>/connectpool/) into
 * target.pool (lifecycle.ts vurun); a missing file fails vurun, naming where to put it.
 *
 * Keys read together rather than one to one (see DERIVED below):
 * - mssqls_linux_server / mssqls_server -> target.host: linux_server, unless it is still the default
 *   and server was changed from "(local)".
 * - mssqls_azure -> target.authentication ('azure-active-directory-password' when true, else 'sql').
 * - mysql_socket / maria_socket -> target.socket, used (as HammerDB does) only when the host is
 *   localhost or 127.0.0.1, and only when that socket file exists on the Sledge server (otherwise TCP).
 * - <p>_ssl_ca / _ssl_cert / _ssl_key are file names under <p>_ssl_linux_capath: sslCa when ssl is true,
 *   sslCert and sslKey when ssl_two_way is true as well.
 *
 * TPROC-H (dbset bm TPC-H) reads the tpch section (TPROCH, TPROCH_TARGET below): its own user,
 * password and database, the driver keys, and vuset vu (1 = power test; more = throughput streams,
 * one of them the refresh stream when refresh_on is true).
 *
 * Sledge extensions (keys HammerDB does not have): db2_host and db2_port, and the whole sqlite_ dict.
 *
 * Sledge fields no key maps onto: tprocc.mix (HammerDB's drivers hard-code the 10/10/1/1/1 draw and
 * its dict has no key for it; set the weights through REST, the CLI's --mix or the Run page).
 */
export type Conv = 'string' | 'int' | 'number' | 'bool' | { oneOf: readonly string[] };

export interface KeyMapping {
  /** key suffix (keyName(prefix, suffix) is the dict key) */
  suffix: string;
  /** 'target.<field>', 'tprocc.<field>' or 'tprocc.schema.<field>' */
  path: string;
  conv: Conv;
}

const m = (suffix: string, path: string, conv: Conv = 'string'): KeyMapping => ({ suffix, path, conv });

/** TPROC-C keys every database has. */
const TPROCC: KeyMapping[] = [
  m('count_ware', 'tprocc.warehouses', 'int'),
  m('num_vu', 'tprocc.buildVus', 'int'),
  m('total_iterations', 'tprocc.totalIterations', 'int'),
  m('raiseerror', 'tprocc.raiseError', 'bool'),
  m('keyandthink', 'tprocc.keyAndThink', 'bool'),
  m('driver', 'tprocc.driver', { oneOf: ['test', 'timed'] }),
  m('rampup', 'tprocc.rampup', 'number'),
  m('duration', 'tprocc.duration', 'number'),
  m('allwarehouse', 'tprocc.allWarehouse', 'bool'),
  m('timeprofile', 'tprocc.timeProfile', 'bool'),
  m('async_scale', 'tprocc.asyncScale', 'bool'),
  m('async_client', 'tprocc.asyncClients', 'int'),
  m('async_delay', 'tprocc.asyncDelayMs', 'int'),
  m('async_verbose', 'tprocc.asyncVerbose', 'bool'),
];

const MYSQL: KeyMapping[] = [
  m('host', 'target.host'),
  m('port', 'target.port', 'int'),
  m('ssl', 'target.ssl', 'bool'),
  m('user', 'target.user'),
  m('pass', 'target.password'),
  m('dbase', 'target.database'),
  m('storage_engine', 'tprocc.schema.storageEngine'),
  m('partition', 'tprocc.schema.partition', 'bool'),
  m('prepared', 'target.prepared', 'bool'),
  m('history_pk', 'tprocc.schema.historyPk', 'bool'),
  m('no_stored_procs', 'target.noStoredProcs', 'bool'),
];

/** One-to-one target keys per engine. */
const TARGET: Record<EngineId, KeyMapping[]> = {
  postgresql: [
    m('host', 'target.host'),
    m('port', 'target.port', 'int'),
    m('sslmode', 'target.sslmode', { oneOf: ['disable', 'prefer', 'require', 'verify-full'] }),
    m('superuser', 'target.superuser'),
    m('superuserpass', 'target.superuserPassword'),
    m('defaultdbase', 'target.defaultDatabase'),
    m('user', 'target.user'),
    m('pass', 'target.password'),
    m('dbase', 'target.database'),
    m('tspace', 'tprocc.schema.tablespace'),
    m('vacuum', 'target.vacuum', 'bool'),
    m('storedprocs', 'tprocc.schema.storedProcs', 'bool'),
    m('partition', 'tprocc.schema.partition', 'bool'),
  ],
  mysql: MYSQL,
  mariadb: [...MYSQL, m('purge', 'target.purge', 'bool')],
  mssql: [
    m('port', 'target.port', 'int'),
    m('uid', 'target.user'),
    m('pass', 'target.password'),
    m('dbase', 'target.database'),
    m('encrypt_connection', 'target.encrypt', 'bool'),
    m('trust_server_cert', 'target.trustServerCertificate', 'bool'),
    m('use_bcp', 'tprocc.schema.useBulk', 'bool'),
    m('checkpoint', 'target.checkpoint', 'bool'),
  ],
  oracle: [
    m('system_user', 'target.systemUser'),
    m('system_password', 'target.systemPassword'),
    m('instance', 'target.connectString'),
    m('tpcc_user', 'target.user'),
    m('tpcc_pass', 'target.password'),
    m('tpcc_def_tab', 'tprocc.schema.defaultTablespace'),
    m('tpcc_ol_tab', 'tprocc.schema.orderLineTablespace'),
    m('tpcc_def_temp', 'tprocc.schema.tempTablespace'),
    m('partition', 'tprocc.schema.partition', 'bool'),
    m('checkpoint', 'target.checkpoint', 'bool'),
  ],
  db2: [
    m('host', 'target.host'),
    m('port', 'target.port', 'int'),
    m('user', 'target.user'),
    m('pass', 'target.password'),
    m('dbase', 'target.database'),
    m('def_tab', 'tprocc.schema.tablespace'),
    m('partition', 'tprocc.schema.partition', 'bool'),
  ],
  sqlite: [m('file', 'target.file'), m('busy_timeout', 'target.busyTimeoutMs', 'int'), m('synchronous', 'target.synchronous', { oneOf: ['off', 'normal', 'full'] })],
  // HammerDB has no DuckDB: no keys map onto its target.
  duckdb: [],
};

/** TPROC-H driver and schema keys every database has (the tpch section). */
const TPROCH: KeyMapping[] = [
  m('scale_fact', 'tproch.scaleFactor', 'number'),
  m('num_tpch_threads', 'tproch.buildVus', 'int'),
  m('total_querysets', 'tproch.querySets', 'int'),
  m('raise_query_error', 'tproch.raiseQueryError', 'bool'),
  m('verbose', 'tproch.verbose', 'bool'),
  m('refresh_on', 'tproch.refresh', 'bool'),
  m('update_sets', 'tproch.updateSets', 'int'),
  m('trickle_refresh', 'tproch.trickleMs', 'int'),
];

/**
 * The tpch section's connection keys per engine: the TPROC-H schema's own
 * user, password and database (HammerDB keeps them apart from TPROC-C's),
 * and the engine's degree-of-parallelism key. The connection section's keys
 * (host, port, TLS) apply as for TPROC-C.
 */
const TPROCH_TARGET: Record<EngineId, KeyMapping[]> = {
  postgresql: [
    m('tpch_superuser', 'target.superuser'),
    m('tpch_superuserpass', 'target.superuserPassword'),
    m('tpch_defaultdbase', 'target.defaultDatabase'),
    m('tpch_user', 'target.user'),
    m('tpch_pass', 'target.password'),
    m('tpch_dbase', 'target.database'),
    m('degree_of_parallel', 'tproch.dop', 'int'),
  ],
  mysql: [m('tpch_user', 'target.user'), m('tpch_pass', 'target.password'), m('tpch_dbase', 'target.database')],
  mariadb: [m('tpch_user', 'target.user'), m('tpch_pass', 'target.password'), m('tpch_dbase', 'target.database')],
  mssql: [m('tpch_dbase', 'target.database'), m('maxdop', 'tproch.dop', 'int'), m('uid', 'target.user'), m('pass', 'target.password')],
  oracle: [m('tpch_user', 'target.user'), m('tpch_pass', 'target.password'), m('degree_of_parallel', 'tproch.dop', 'int')],
  db2: [m('tpch_user', 'target.user'), m('tpch_pass', 'target.password'), m('tpch_dbase', 'target.database'), m('degree_of_parallel', 'tproch.dop', 'int')],
  sqlite: [m('tpch_file', 'target.file')],
  duckdb: [],
};

/** Keys read by a derivation (validated like one-to-one keys, reported as mapped). */
const DERIVED_KEYS: Partial<Record<EngineId, KeyMapping[]>> = {
  mssql: [m('server', 'target.host'), m('linux_server', 'target.host'), m('azure', 'target.authentication', 'bool')],
  mysql: [m('socket', 'target.socket'), m('ssl_two_way', 'target.sslCert', 'bool'), m('ssl_linux_capath', 'target.sslCa'), m('ssl_ca', 'target.sslCa'), m('ssl_cert', 'target.sslCert'), m('ssl_key', 'target.sslKey')],
};
DERIVED_KEYS.mariadb = DERIVED_KEYS.mysql;

/** vuset and tcset options -> tprocc fields (the other vuset options are kept and ignored: Sledge always shows output). */
export const VUSET_MAP: Record<string, KeyMapping> = {
  vu: m('vu', 'tprocc.vus', 'int'),
  delay: m('delay', 'tprocc.userDelayMs', 'int'),
  repeat: m('repeat', 'tprocc.repeatDelayMs', 'int'),
  iterations: m('iterations', 'tprocc.iterations', 'int'),
};
export const TCSET_MAP: Record<string, KeyMapping> = { refreshrate: m('refreshrate', 'tprocc.tcRefreshSec', 'int') };

const TRUE = ['true', '1', 'yes', 'on'];
const FALSE = ['false', '0', 'no', 'off'];

/** Convert a dict string; undefined when it does not convert. */
export function convert(value: string, conv: Conv): string | number | boolean | undefined {
  const v = value.trim();
  if (conv === 'string') return value;
  if (conv === 'bool') {
    const l = v.toLowerCase();
    return TRUE.includes(l) ? true : FALSE.includes(l) ? false : undefined;
  }
  if (conv === 'int') return /^[+-]?\d+$/.test(v) ? Number(v) : undefined;
  if (conv === 'number') return v !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined;
  return conv.oneOf.includes(v) ? v : undefined;
}

export function describeConv(conv: Conv): string {
  if (conv === 'string') return 'a string';
  if (conv === 'bool') return 'true or false';
  if (conv === 'int') return 'an integer';
  if (conv === 'number') return 'a number';
  return `one of ${conv.oneOf.join(', ')}`;
}

/** Every mapped key of an engine: dict key -> mapping. */
export function mappedKeys(prefix: string, engine: EngineId): Map<string, KeyMapping> {
  const out = new Map<string, KeyMapping>();
  for (const x of [...TARGET[engine], ...(DERIVED_KEYS[engine] ?? []), ...TPROCC, ...TPROCH_TARGET[engine], ...TPROCH]) out.set(keyName(prefix, x.suffix), x);
  return out;
}

/** The mapping of a dict key, or undefined when Sledge ignores the key. */
export function mappingOf(prefix: string, engine: EngineId, key: string): KeyMapping | undefined {
  return mappedKeys(prefix, engine).get(key);
}

export interface SledgeFields {
  target: Record<string, unknown>;
  tprocc: Record<string, unknown>;
  /** Filled by dictToSledgeTproch (the tpch section). */
  tproch?: Record<string, unknown>;
}

/** The object a field path's last part lives in (tprocc.schema.partition: out.tprocc.schema, created when missing). */
function put(out: SledgeFields, path: string, value: unknown): void {
  const [group, ...rest] = path.split('.') as ['target' | 'tprocc' | 'tproch', ...string[]];
  let o: Record<string, unknown> = (out[group] ??= {});
  for (const k of rest.slice(0, -1)) o = (o[k] ??= {}) as Record<string, unknown>;
  o[rest[rest.length - 1]!] = value;
}

/** The value at a field path, undefined when any part is missing. */
function at(config: Record<string, unknown>, path: string): unknown {
  let o: unknown = config;
  for (const k of path.split('.')) o = o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined;
  return o;
}

/** A value that did not convert: the dict key and what it should be. */
export class KeyValueError extends Error {
  constructor(
    readonly key: string,
    readonly value: string,
    readonly conv: Conv,
  ) {
    super(`Value ${value} for ${key} must be ${describeConv(conv)}`);
  }
}

function read(dict: Dict, section: Section, key: string, conv: Conv): string | number | boolean | undefined {
  const raw = dict[section]?.[key];
  if (raw === undefined) return undefined;
  const v = convert(raw, conv);
  if (v === undefined) throw new KeyValueError(key, raw, conv);
  return v;
}

const local = (host: unknown) => host === 'localhost' || host === '127.0.0.1';

/** Fields read from several keys at once (see the header). */
const DERIVED: Partial<Record<EngineId, (get: (suffix: string, conv: Conv) => string | number | boolean | undefined, out: SledgeFields) => void>> = {
  mssql: (get, out) => {
    const linux = get('linux_server', 'string');
    const server = get('server', 'string');
    put(out, 'target.host', linux === 'localhost' && typeof server === 'string' && server !== '(local)' ? server : linux);
    put(out, 'target.authentication', get('azure', 'bool') === true ? 'azure-active-directory-password' : 'sql');
  },
  mysql: (get, out) => {
    const socket = get('socket', 'string');
    if (local(out.target['host']) && typeof socket === 'string' && socket !== '' && socket.toLowerCase() !== 'null' && existsSync(socket)) put(out, 'target.socket', socket);
    const dir = String(get('ssl_linux_capath', 'string') ?? '');
    const file = (suffix: string) => {
      const f = String(get(suffix, 'string') ?? '');
      return f === '' || isAbsolute(f) || dir === '' ? f : join(dir, f);
    };
    if (out.target['ssl'] === true) {
      put(out, 'target.sslCa', file('ssl_ca'));
      if (get('ssl_two_way', 'bool') === true) {
        put(out, 'target.sslCert', file('ssl_cert'));
        put(out, 'target.sslKey', file('ssl_key'));
      }
    }
  },
};
DERIVED.mariadb = DERIVED.mysql;

/** The primary key of each derived field, for a stored job's dict (the reverse of DERIVED). */
const DERIVED_OUT: Partial<Record<EngineId, (value: (path: string) => unknown, set: (suffix: string, v: unknown) => void) => void>> = {
  mssql: (value, set) => {
    set('linux_server', value('target.host'));
    set('azure', value('target.authentication') === 'azure-active-directory-password');
  },
  mysql: (value, set) => {
    if (value('target.socket')) set('socket', value('target.socket'));
  },
};
DERIVED_OUT.mariadb = DERIVED_OUT.mysql;

/**
 * The Sledge target and tprocc fields a dict describes (connection and tpcc
 * sections). Throws KeyValueError when a mapped key does not convert.
 */
export function dictToSledge(prefix: string, engine: EngineId, dict: Dict): SledgeFields {
  const out: SledgeFields = { target: { engine }, tprocc: {} };
  for (const x of [...TARGET[engine], ...TPROCC]) {
    const key = keyName(prefix, x.suffix);
    const v = read(dict, 'connection', key, x.conv) ?? read(dict, 'tpcc', key, x.conv);
    if (v !== undefined) put(out, x.path, v);
  }
  const get = (suffix: string, conv: Conv) => {
    const key = keyName(prefix, suffix);
    return read(dict, 'connection', key, conv) ?? read(dict, 'tpcc', key, conv);
  };
  DERIVED[engine]?.(get, out);
  return out;
}

/**
 * The Sledge target and tproch fields for a TPROC-H job (dbset bm TPC-H):
 * the connection section's target keys (host, port, TLS, derived ones),
 * then the tpch section's own user, password and database and its driver
 * keys. Throws KeyValueError when a mapped key does not convert.
 */
export function dictToSledgeTproch(prefix: string, engine: EngineId, dict: Dict): SledgeFields {
  const base = dictToSledge(prefix, engine, { connection: dict.connection ?? {} });
  const out: SledgeFields = { target: base.target, tprocc: {}, tproch: {} };
  for (const x of [...TPROCH_TARGET[engine], ...TPROCH]) {
    const v = read(dict, 'tpch', keyName(prefix, x.suffix), x.conv);
    if (v !== undefined) put(out, x.path, v);
  }
  return out;
}

/**
 * The HammerDB keys of a stored Sledge job config (jobs?jobid=ID&dict): every
 * one-to-one key, in the section the database's dict keeps it, plus the
 * primary key of each derived field. Secrets arrive already redacted.
 */
export function sledgeToDict(prefix: string, engine: EngineId, template: Dict, stored: { target?: Record<string, unknown>; tprocc?: Record<string, unknown>; tproch?: Record<string, unknown> }): Dict {
  if (stored.tproch) return tprochToDict(prefix, engine, template, stored);
  // A job stored before the TPROC-C schema options left the target reads like one stored after.
  const config = normalizeTproccSchema(stored);
  const out: Dict = {};
  const set = (key: string, value: unknown) => {
    if (value === undefined || value === null) return;
    const section: Section = template.connection && key in template.connection ? 'connection' : 'tpcc';
    (out[section] ??= {})[key] = String(value);
  };
  const value = (path: string) => at(config, path);
  for (const x of [...TARGET[engine], ...TPROCC]) set(keyName(prefix, x.suffix), value(x.path));
  DERIVED_OUT[engine]?.(value, (suffix, v) => set(keyName(prefix, suffix), v));
  // A run through a connect pool (target.pool) is HammerDB's <prefix>_connect_pool true.
  if (config['target'] && (config['target'] as Record<string, unknown>)['pool']) set(keyName(prefix, 'connect_pool'), 'true');
  // Order the sections as HammerDB prints them.
  return Object.fromEntries((['connection', 'tpcc'] as const).filter((s) => out[s]).map((s) => [s, out[s]!])) as Dict;
}

/** The dict key (or vuset/tcset option) behind a Sledge field path, for error messages. */
export function keyForField(prefix: string, engine: EngineId, field: string, tproch = false): string | undefined {
  const lists = tproch ? [...TPROCH_TARGET[engine], ...TPROCH, ...TARGET[engine]] : [...TARGET[engine], ...TPROCC];
  for (const x of lists) if (x.path === field) return keyName(prefix, x.suffix);
  for (const [opt, x] of Object.entries(VUSET_MAP)) if (x.path === field) return `vuset ${opt}`;
  for (const [opt, x] of Object.entries(TCSET_MAP)) if (x.path === field) return `tcset ${opt}`;
  return undefined;
}

/** sledgeToDict for a stored TPROC-H job: its connection keys and its tpch section. */
function tprochToDict(prefix: string, engine: EngineId, template: Dict, config: { target?: Record<string, unknown>; tproch?: Record<string, unknown> }): Dict {
  const out: Dict = {};
  const value = (path: string) => at(config as Record<string, unknown>, path);
  const tpchOwn = new Set(TPROCH_TARGET[engine].map((x) => x.path));
  for (const x of TARGET[engine]) {
    const key = keyName(prefix, x.suffix);
    const v = value(x.path);
    if (v === undefined || v === null || tpchOwn.has(x.path) || !(template.connection && key in template.connection)) continue;
    (out.connection ??= {})[key] = String(v);
  }
  DERIVED_OUT[engine]?.(value, (suffix, v) => {
    if (v !== undefined && v !== null) (out.connection ??= {})[keyName(prefix, suffix)] = String(v);
  });
  for (const x of [...TPROCH_TARGET[engine], ...TPROCH]) {
    const v = value(x.path);
    if (v !== undefined && v !== null) (out.tpch ??= {})[keyName(prefix, x.suffix)] = String(v);
  }
  return out;
}
