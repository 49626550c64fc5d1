import type { Section } from './dicts.js';

/**
 * The variables of the `#EDITABLE OPTIONS` block of HammerDB's generated
 * driver scripts and the dict keys they come from (loadscript writes each
 * key's value into its variable). Names are matched case-insensitively
 * (RAISEERROR, KEYANDTHINK, VACUUM are upper case in the scripts).
 * A target is a key suffix (keyName adds the prefix) in a section, or a
 * special reading: `connect` (Oracle's user/password@instance).
 */
export interface VarTarget {
  section: Section;
  suffix: string;
}
type VarMap = Record<string, VarTarget>;

const t = (section: Section, pairs: [string, string][]): VarMap => Object.fromEntries(pairs.map(([v, suffix]) => [v, { section, suffix }]));

/** TPROC-C driver variables every database's script has. */
const TPCC_COMMON = t('tpcc', [
  ['total_iterations', 'total_iterations'],
  ['raiseerror', 'raiseerror'],
  ['keyandthink', 'keyandthink'],
  ['rampup', 'rampup'],
  ['duration', 'duration'],
  ['allwarehouse', 'allwarehouse'],
  // loadscript writes `set allwarehouses "true"` into the block when allwarehouse is true.
  ['allwarehouses', 'allwarehouse'],
  ['timeprofile', 'timeprofile'],
  ['async_scale', 'async_scale'],
  ['async_client', 'async_client'],
  ['async_verbose', 'async_verbose'],
  ['async_delay', 'async_delay'],
]);

/** TPROC-H driver variables every database's script has. */
const TPCH_COMMON = t('tpch', [
  ['total_querysets', 'total_querysets'],
  ['raiseerror', 'raise_query_error'],
  ['verbose', 'verbose'],
  ['scale_factor', 'scale_fact'],
  ['refresh_on', 'refresh_on'],
  ['update_sets', 'update_sets'],
  ['trickle_refresh', 'trickle_refresh'],
  ['refresh_verbose', 'refresh_verbose'],
]);

const MYSQL_CONN = t('connection', [
  ['host', 'host'],
  ['port', 'port'],
  ['socket', 'socket'],
]);

/** Per database: the connection and schema variables of its TPROC-C and TPROC-H driver scripts. */
export const SCRIPT_VARS: Record<string, { tpcc: VarMap; tpch: VarMap }> = {
  pg: {
    tpcc: {
      ...t('connection', [['host', 'host'], ['port', 'port'], ['sslmode', 'sslmode']]),
      ...t('tpcc', [['superuser', 'superuser'], ['superuser_password', 'superuserpass'], ['default_database', 'defaultdbase'], ['user', 'user'], ['password', 'pass'], ['db', 'dbase'], ['vacuum', 'vacuum'], ['drita_snapshots', 'dritasnap'], ['ora_compatible', 'oracompat'], ['citus_compatible', 'cituscompat'], ['pg_storedprocs', 'storedprocs']]),
    },
    tpch: {
      ...t('connection', [['host', 'host'], ['port', 'port'], ['sslmode', 'sslmode']]),
      ...t('tpch', [['user', 'tpch_user'], ['password', 'tpch_pass'], ['db', 'tpch_dbase'], ['degree_of_parallel', 'degree_of_parallel'], ['cloud_query', 'cloud_query'], ['rs_compat', 'rs_compat']]),
    },
  },
  mysql: {
    tpcc: { ...MYSQL_CONN, ...t('tpcc', [['user', 'user'], ['password', 'pass'], ['db', 'dbase'], ['prepare', 'prepared']]) },
    tpch: { ...MYSQL_CONN, ...t('tpch', [['user', 'tpch_user'], ['password', 'tpch_pass'], ['db', 'tpch_dbase'], ['cloud_query', 'cloud_query']]) },
  },
  maria: {
    tpcc: { ...MYSQL_CONN, ...t('tpcc', [['user', 'user'], ['password', 'pass'], ['db', 'dbase'], ['prepare', 'prepared'], ['purge', 'purge']]) },
    tpch: { ...MYSQL_CONN, ...t('tpch', [['user', 'tpch_user'], ['password', 'tpch_pass'], ['db', 'tpch_dbase'], ['cloud_query', 'cloud_query']]) },
  },
  ora: {
    tpcc: t('tpcc', [['timesten', 'tpcc_tt_compat'], ['checkpoint', 'checkpoint']]),
    tpch: t('tpch', [['degree_of_parallel', 'degree_of_parallel'], ['timesten', 'tpch_tt_compat'], ['cloud_query', 'cloud_query']]),
  },
  mssqls: {
    tpcc: {
      ...t('connection', [['authentication', 'linux_authent'], ['server', 'linux_server'], ['port', 'port'], ['odbc_driver', 'linux_odbc'], ['uid', 'uid'], ['pwd', 'pass'], ['tcp', 'tcp'], ['azure', 'azure'], ['encrypt', 'encrypt_connection'], ['trust_cert', 'trust_server_cert'], ['msi_object_id', 'msi_object_id']]),
      ...t('tpcc', [['database', 'dbase'], ['checkpoint', 'checkpoint']]),
    },
    tpch: {
      ...t('connection', [['authentication', 'linux_authent'], ['server', 'linux_server'], ['port', 'port'], ['odbc_driver', 'linux_odbc'], ['uid', 'uid'], ['pwd', 'pass'], ['tcp', 'tcp'], ['azure', 'azure'], ['encrypt', 'encrypt_connection'], ['trust_cert', 'trust_server_cert'], ['msi_object_id', 'msi_object_id']]),
      ...t('tpch', [['database', 'tpch_dbase'], ['maxdop', 'maxdop']]),
    },
  },
  db2: {
    tpcc: t('tpcc', [['user', 'user'], ['password', 'pass'], ['dbname', 'dbase']]),
    tpch: t('tpch', [['user', 'tpch_user'], ['password', 'tpch_pass'], ['dbname', 'tpch_dbase'], ['degree_of_parallel', 'degree_of_parallel']]),
  },
  // Sledge's own database: no HammerDB script exists; savescript writes this block and customscript reads it back.
  sqlite: {
    tpcc: t('connection', [['file', 'file'], ['busy_timeout', 'busy_timeout'], ['synchronous', 'synchronous']]),
    tpch: { ...t('connection', [['busy_timeout', 'busy_timeout'], ['synchronous', 'synchronous']]), ...t('tpch', [['file', 'tpch_file']]) },
  },
};

/** The variables of a database's script for a workload (its own and the common driver ones). */
export function scriptVars(prefix: string, workload: 'tpcc' | 'tpch'): VarMap {
  const own = SCRIPT_VARS[prefix]?.[workload] ?? {};
  return { ...(workload === 'tpcc' ? TPCC_COMMON : TPCH_COMMON), ...own };
}

/** The Tcl library each database's script loads (`set library ...`), lower case. */
export const SCRIPT_LIBRARY: Record<string, string> = { pgtcl: 'pg', mysqltcl: 'mysql', mariatcl: 'maria', oratcl: 'ora', 'tdbc::odbc': 'mssqls', db2tcl: 'db2', sqlite3: 'sqlite' };

/** Variables that carry a password (never printed, saved or echoed). */
export const isPasswordVar = (v: string) => /pass|pwd/i.test(v) || v === 'connect' || v === 'systemconnect';
