import { TPROCH_TARGET_DEFAULTS, type EngineId } from '@sledge/protocol';

/**
 * HammerDB's databases and their configuration dicts (hammerdb.md §1.2, §1.4),
 * flattened the way HammerDB flattens config/<db>.xml: three sections,
 * `connection`, `tpcc` and `tpch`, each an ordered map of key -> string value.
 * `sqlite` is Sledge's extension (HammerDB has no SQLite target).
 */
export type Section = 'connection' | 'tpcc' | 'tpch';
export const SECTIONS: readonly Section[] = ['connection', 'tpcc', 'tpch'];
export type Dict = Partial<Record<Section, Record<string, string>>>;

export interface HdbDatabase {
  /** `dbset db <prefix>` */
  prefix: string;
  /** HammerDB's name (JOBMAIN.db, "Database set to <name>"). */
  name: string;
  engine: EngineId;
  /** HammerDB benchmarks the database offers (`dbset bm`). */
  workloads: readonly string[];
  /** Key suffixes that carry the prefix when the database's other keys carry none (Oracle: only `ora_driver`, `ora_timeprofile`). */
  prefixedOnly?: readonly string[];
}

/** In HammerDB's order (config/database.xml), then Sledge's SQLite. */
export const DATABASES: readonly HdbDatabase[] = [
  { prefix: 'ora', name: 'Oracle', engine: 'oracle', workloads: ['TPC-C', 'TPC-H'], prefixedOnly: ['driver', 'timeprofile'] },
  { prefix: 'mssqls', name: 'MSSQLServer', engine: 'mssql', workloads: ['TPC-C', 'TPC-H'] },
  { prefix: 'db2', name: 'Db2', engine: 'db2', workloads: ['TPC-C', 'TPC-H'] },
  { prefix: 'mysql', name: 'MySQL', engine: 'mysql', workloads: ['TPC-C', 'TPC-H'] },
  { prefix: 'pg', name: 'PostgreSQL', engine: 'postgresql', workloads: ['TPC-C', 'TPC-H'] },
  { prefix: 'maria', name: 'MariaDB', engine: 'mariadb', workloads: ['TPC-C', 'TPC-H'] },
  { prefix: 'sqlite', name: 'SQLite', engine: 'sqlite', workloads: ['TPC-C', 'TPC-H'] },
];

export function databaseByPrefix(prefix: string): HdbDatabase | undefined {
  return DATABASES.find((d) => d.prefix === prefix);
}

export function databaseByEngine(engine: EngineId): HdbDatabase {
  const d = DATABASES.find((x) => x.engine === engine);
  if (!d) throw new Error(`no HammerDB database for engine ${engine}`);
  return d;
}

/**
 * The full key name of a generic key for a database. HammerDB's generic code
 * finds keys by suffix (`*count_ware`, `*_driver`, ...). Oracle's keys carry no
 * prefix, except its driver and time-profile keys (`ora_driver`, `ora_timeprofile`).
 */
export function keyName(prefix: string, suffix: string): string {
  const only = databaseByPrefix(prefix)?.prefixedOnly;
  if (only) return only.includes(suffix) ? `${prefix}_${suffix}` : suffix;
  return `${prefix}_${suffix}`;
}

type Pairs = [string, string][];

/** TPROC-C driver keys every database has (suffixes and HammerDB's defaults). */
const TPCC_DRIVER: Pairs = [
  ['total_iterations', '10000000'],
  ['raiseerror', 'false'],
  ['keyandthink', 'false'],
  ['driver', 'timed'],
  ['rampup', '2'],
  ['duration', '5'],
  ['allwarehouse', 'false'],
  ['timeprofile', 'false'],
  ['async_scale', 'false'],
  ['async_client', '10'],
  ['async_verbose', 'false'],
  ['async_delay', '1000'],
  ['connect_pool', 'false'],
];

/** TPROC-H driver keys every HammerDB database has. */
const TPCH_DRIVER: Pairs = [
  ['total_querysets', '1'],
  ['raise_query_error', 'false'],
  ['verbose', 'false'],
  ['refresh_on', 'false'],
  ['update_sets', '1'],
  ['trickle_refresh', '1000'],
  ['refresh_verbose', 'false'],
];

interface DictSpec {
  connection: Pairs;
  /** tpcc schema keys and database-specific extras (the common driver keys are appended). */
  tpcc: Pairs;
  /** tpch schema keys (the common driver keys and `tpchExtra` are appended), or null when the database has no TPROC-H. */
  tpch: Pairs | null;
  tpchExtra?: Pairs;
}

const mysqlConnection = (socket: string, oceanbase: boolean): Pairs => [
  ['host', '127.0.0.1'],
  ['port', '3306'],
  ['socket', socket],
  ['ssl', 'false'],
  ['ssl_two_way', 'false'],
  ['ssl_linux_capath', '/etc/mysql/certs'],
  ['ssl_windows_capath', 'C:\\mysql\\certs'],
  ['ssl_ca', 'ca-cert.pem'],
  ['ssl_cert', 'client-cert.pem'],
  ['ssl_key', 'client-key.pem'],
  ['ssl_cipher', 'server'],
  ...(oceanbase ? ([['oceanbase_port', '2881']] as Pairs) : []),
];

const mysqlTpcc = (pass: string): Pairs => [
  ['count_ware', '1'],
  ['num_vu', '1'],
  ['user', 'root'],
  ['pass', pass],
  ['dbase', 'tpcc'],
  ['storage_engine', 'innodb'],
  ['partition', 'false'],
  ['prepared', 'false'],
  ['history_pk', 'false'],
  ['no_stored_procs', 'false'],
];

const SPECS: Record<string, DictSpec> = {
  ora: {
    connection: [
      ['system_user', 'system'],
      ['system_password', 'manager'],
      ['instance', 'oracle'],
      ['rac', '0'],
    ],
    tpcc: [
      ['count_ware', '1'],
      ['num_vu', '1'],
      ['tpcc_user', 'tpcc'],
      ['tpcc_pass', 'tpcc'],
      ['tpcc_def_tab', 'users'],
      ['tpcc_ol_tab', 'users'],
      ['tpcc_def_temp', 'temp'],
      ['partition', 'false'],
      ['hash_clusters', 'false'],
      ['tpcc_tt_compat', 'false'],
      ['checkpoint', 'false'],
    ],
    tpch: [
      ['scale_fact', '1'],
      ['tpch_user', 'tpch'],
      ['tpch_pass', 'tpch'],
      ['tpch_def_tab', 'users'],
      ['tpch_def_temp', 'temp'],
      ['num_tpch_threads', '1'],
      ['tpch_tt_compat', 'false'],
    ],
    tpchExtra: [
      ['degree_of_parallel', '2'],
      ['cloud_query', 'false'],
    ],
  },
  mssqls: {
    connection: [
      ['server', '(local)'],
      ['linux_server', 'localhost'],
      ['tcp', 'false'],
      ['port', '1433'],
      ['azure', 'false'],
      ['authentication', 'windows'],
      ['msi_object_id', 'null'],
      ['linux_authent', 'sql'],
      ['odbc_driver', 'ODBC Driver 18 for SQL Server'],
      ['linux_odbc', 'ODBC Driver 18 for SQL Server'],
      ['uid', 'sa'],
      ['pass', 'admin'],
      ['encrypt_connection', 'true'],
      ['trust_server_cert', 'true'],
    ],
    tpcc: [
      ['count_ware', '1'],
      ['num_vu', '1'],
      ['dbase', 'tpcc'],
      ['imdb', 'false'],
      ['bucket', '1'],
      ['durability', 'SCHEMA_AND_DATA'],
      ['use_bcp', 'true'],
      ['checkpoint', 'false'],
    ],
    tpch: [
      ['scale_fact', '1'],
      ['maxdop', '2'],
      ['tpch_dbase', 'tpch'],
      ['num_tpch_threads', '1'],
      ['colstore', 'false'],
      ['tpch_use_bcp', 'true'],
      ['tpch_partition_orders_and_lineitems', 'false'],
      ['tpch_advanced_stats', 'false'],
    ],
  },
  db2: {
    connection: [
      ['def_user', 'db2inst1'],
      ['def_pass', 'ibmdb2'],
      ['def_dbase', 'db2'],
      // Sledge extensions: HammerDB reaches Db2 through a catalogued alias; Sledge's driver connects over TCP.
      ['host', 'localhost'],
      ['port', '50000'],
    ],
    tpcc: [
      ['count_ware', '1'],
      ['num_vu', '1'],
      ['user', 'db2inst1'],
      ['pass', 'ibmdb2'],
      ['dbase', 'tpcc'],
      ['def_tab', 'USERSPACE1'],
      ['tab_list', 'C "" D "" H "" I "" W "" S "" NO "" OR "" OL ""'],
      ['partition', 'false'],
      ['monreport', '0'],
    ],
    tpch: [
      ['scale_fact', '1'],
      ['tpch_user', 'db2inst1'],
      ['tpch_pass', 'ibmdb2'],
      ['tpch_dbase', 'tpch'],
      ['tpch_def_tab', 'USERSPACE1'],
      ['num_tpch_threads', '1'],
      ['tpch_organizeby', 'NONE'],
    ],
    tpchExtra: [['degree_of_parallel', '2']],
  },
  mysql: {
    connection: mysqlConnection('/tmp/mysql.sock', true),
    tpcc: mysqlTpcc('mysql'),
    tpch: [
      ['scale_fact', '1'],
      ['tpch_user', 'root'],
      ['ob_tenant_name', 'tpch'],
      ['tpch_pass', 'mysql'],
      ['tpch_dbase', 'tpch'],
      ['num_tpch_threads', '1'],
      ['tpch_obcompat', 'false'],
      ['ob_partition_num', '1'],
      ['tpch_storage_engine', 'innodb'],
    ],
    tpchExtra: [['cloud_query', 'false']],
  },
  pg: {
    connection: [
      ['host', 'localhost'],
      ['port', '5432'],
      ['sslmode', 'prefer'],
    ],
    tpcc: [
      ['count_ware', '1'],
      ['num_vu', '1'],
      ['superuser', 'postgres'],
      ['superuserpass', 'postgres'],
      ['defaultdbase', 'postgres'],
      ['user', 'tpcc'],
      ['pass', 'tpcc'],
      ['dbase', 'tpcc'],
      ['tspace', 'pg_default'],
      ['vacuum', 'false'],
      ['dritasnap', 'false'],
      ['oracompat', 'false'],
      ['cituscompat', 'false'],
      ['storedprocs', 'false'],
      ['partition', 'false'],
    ],
    tpch: [
      ['scale_fact', '1'],
      ['tpch_superuser', 'postgres'],
      ['tpch_superuserpass', 'postgres'],
      ['tpch_defaultdbase', 'postgres'],
      ['tpch_user', 'tpch'],
      ['tpch_pass', 'tpch'],
      ['tpch_dbase', 'tpch'],
      ['tpch_tspace', 'pg_default'],
      ['tpch_gpcompat', 'false'],
      ['tpch_gpcompress', 'false'],
      ['num_tpch_threads', '1'],
    ],
    tpchExtra: [
      ['degree_of_parallel', '2'],
      ['cloud_query', 'false'],
      ['rs_compat', 'false'],
    ],
  },
  maria: {
    connection: mysqlConnection('/tmp/mariadb.sock', false),
    tpcc: [...mysqlTpcc('maria'), ['purge', 'false']],
    tpch: [
      ['scale_fact', '1'],
      ['tpch_user', 'root'],
      ['tpch_pass', 'maria'],
      ['tpch_dbase', 'tpch'],
      ['num_tpch_threads', '1'],
      ['tpch_storage_engine', 'innodb'],
    ],
    tpchExtra: [['cloud_query', 'false']],
  },
  sqlite: {
    connection: [
      ['file', 'tprocc.sqlite'],
      ['busy_timeout', '5000'],
      ['synchronous', 'normal'],
    ],
    tpcc: [
      ['count_ware', '1'],
      ['num_vu', '1'],
    ],
    // Sledge extension: HammerDB has no SQLite; its TPROC-H schema lives in a file of its own.
    tpch: [
      ['scale_fact', '1'],
      ['tpch_file', TPROCH_TARGET_DEFAULTS['sqlite']!['file']!],
      ['num_tpch_threads', '1'],
    ],
  },
};

/** A database's dict with HammerDB's defaults, keys in HammerDB's order. */
export function defaultDict(prefix: string): Dict {
  const spec = SPECS[prefix];
  if (!spec) throw new Error(`unknown HammerDB prefix ${prefix}`);
  const named = (pairs: Pairs) => Object.fromEntries(pairs.map(([k, v]) => [keyName(prefix, k), v]));
  const dict: Dict = {
    connection: named(spec.connection),
    tpcc: named([...spec.tpcc, ...TPCC_DRIVER]),
  };
  if (spec.tpch) dict.tpch = named([...spec.tpch, ...TPCH_DRIVER, ...(spec.tpchExtra ?? [])]);
  return dict;
}

/** The section holding a key, or undefined. */
export function sectionOf(dict: Dict, key: string): Section | undefined {
  return SECTIONS.find((s) => dict[s] !== undefined && Object.prototype.hasOwnProperty.call(dict[s], key));
}

