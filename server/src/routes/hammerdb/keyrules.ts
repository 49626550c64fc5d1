/**
 * The dict keys Sledge maps onto no field (keymap.ts maps the others): each is
 * accepted only at HammerDB's default, or at another value that changes
 * nothing in Sledge, and refused otherwise, saying why. Keys are suffixes
 * (keyName adds the database prefix); `allowed` lists the values accepted,
 * or a pattern of them.
 */
export interface KeyRule {
  allowed: readonly string[] | RegExp;
  why: string;
}

const only = (why: string, ...allowed: string[]): KeyRule => ({ allowed, why });

const NO_TPCH_VARIANT = 'Sledge builds the standard TPROC-H schema';
const NO_EDB = 'Sledge drives community PostgreSQL: EDB Postgres Advanced Server features (DRITA snapshots, Oracle compatibility) are not built';

/** Rules for every database, then per prefix (a prefix's rule wins). */
const COMMON: Record<string, KeyRule> = {
  refresh_verbose: only('Sledge writes one line per refresh function; there is no verbose refresh output', 'false'),
  cloud_query: only("Sledge runs the 22 TPROC-H queries, not HammerDB's cloud analytic query set", 'false'),
  // <prefix>_connect_pool is read by vurun (lifecycle.ts): true runs through the stored connect pool file.
  connect_pool: only('connect pools are read from <prefix>cpool.xml by vurun', 'false', 'true'),
};

const BY_PREFIX: Record<string, Record<string, KeyRule>> = {
  ora: {
    rac: only('Sledge connects to one Oracle connect string (instance) and counts transactions there; RAC-wide (gv$) counting is not implemented', '0'),
    hash_clusters: only('Sledge does not build hash clusters: its Oracle schema uses heap tables and indexes', 'false'),
    tpcc_tt_compat: only('Sledge does not drive Oracle TimesTen', 'false'),
    tpch_tt_compat: only('Sledge does not drive Oracle TimesTen', 'false'),
    tpch_def_tab: only(`${NO_TPCH_VARIANT} in the TPROC-H user's default tablespace`, 'users'),
    tpch_def_temp: only(`${NO_TPCH_VARIANT} with the TPROC-H user's default temporary tablespace`, 'temp'),
  },
  mssqls: {
    tcp: only('Sledge always connects to SQL Server over TCP (TDS)', 'false', 'true'),
    authentication: only('Sledge authenticates with SQL logins (linux_authent sql) or Azure AD when azure is true; Windows authentication is not available', 'windows', 'sql'),
    msi_object_id: only('Sledge does not use Azure managed identities', 'null'),
    linux_authent: only('Sledge authenticates with SQL logins (uid, pass)', 'sql'),
    odbc_driver: { allowed: /^ODBC Driver \d+ for SQL Server$/, why: 'Sledge speaks TDS natively: the ODBC driver name is not used' },
    linux_odbc: { allowed: /^ODBC Driver \d+ for SQL Server$/, why: 'Sledge speaks TDS natively: the ODBC driver name is not used' },
    imdb: only('Sledge does not build the In-Memory OLTP schema', 'false'),
    bucket: only('Sledge does not build the In-Memory OLTP schema (hash bucket count)', '1'),
    durability: only('Sledge does not build the In-Memory OLTP schema (durability)', 'SCHEMA_AND_DATA'),
    colstore: only(`${NO_TPCH_VARIANT} without columnstore indexes`, 'false'),
    tpch_use_bcp: only(`${NO_TPCH_VARIANT} with batched inserts`, 'true', 'false'),
    tpch_partition_orders_and_lineitems: only(`${NO_TPCH_VARIANT} without partitions`, 'false'),
    tpch_advanced_stats: only(`${NO_TPCH_VARIANT} with default statistics`, 'false'),
  },
  db2: {
    def_user: only("Sledge connects as db2_user over TCP (db2_host, db2_port): HammerDB's catalog connection keys are not used", 'db2inst1'),
    def_pass: only("Sledge connects with db2_pass over TCP: HammerDB's catalog connection keys are not used", 'ibmdb2'),
    def_dbase: only("Sledge connects to db2_dbase over TCP: HammerDB's catalog connection keys are not used", 'db2'),
    tab_list: only('Sledge puts every TPROC-C table in db2_def_tab', 'C "" D "" H "" I "" W "" S "" NO "" OR "" OL ""'),
    monreport: only('Sledge does not take Db2 MONREPORT snapshots', '0'),
    tpch_def_tab: only(`${NO_TPCH_VARIANT} in the default tablespace`, 'USERSPACE1'),
    tpch_organizeby: only(`${NO_TPCH_VARIANT} organized by row`, 'NONE'),
  },
  mysql: {
    ssl_windows_capath: { allowed: /[\s\S]*/, why: 'the Sledge server runs on Linux and reads ssl_linux_capath' },
    ssl_cipher: only('Sledge lets the TLS library choose the cipher', 'server'),
    oceanbase_port: only('Sledge does not drive OceanBase', '2881'),
    ob_tenant_name: only('Sledge does not drive OceanBase', 'tpch'),
    tpch_obcompat: only('Sledge does not drive OceanBase', 'false'),
    ob_partition_num: only('Sledge does not drive OceanBase', '1'),
    tpch_storage_engine: only(`${NO_TPCH_VARIANT} on InnoDB`, 'innodb'),
  },
  maria: {
    ssl_windows_capath: { allowed: /[\s\S]*/, why: 'the Sledge server runs on Linux and reads ssl_linux_capath' },
    ssl_cipher: only('Sledge lets the TLS library choose the cipher', 'server'),
    tpch_storage_engine: only(`${NO_TPCH_VARIANT} on InnoDB`, 'innodb'),
  },
  pg: {
    dritasnap: only(NO_EDB, 'false'),
    oracompat: only(NO_EDB, 'false'),
    cituscompat: only('Sledge does not build the Citus distributed schema', 'false'),
    tpch_tspace: only(`${NO_TPCH_VARIANT} in the default tablespace`, 'pg_default'),
    tpch_gpcompat: only('Sledge does not drive Greenplum', 'false'),
    tpch_gpcompress: only('Sledge does not drive Greenplum', 'false'),
    rs_compat: only('Sledge does not drive Amazon Redshift', 'false'),
  },
};

/** The rule of an unmapped key (by suffix), or undefined. */
export function keyRule(prefix: string, suffix: string): KeyRule | undefined {
  return BY_PREFIX[prefix]?.[suffix] ?? COMMON[suffix];
}

export function allows(rule: KeyRule, value: string): boolean {
  return Array.isArray(rule.allowed) ? rule.allowed.includes(value) : (rule.allowed as RegExp).test(value);
}

/** The refusal for a value a rule does not accept. */
export function refusal(section: string, key: string, rule: KeyRule, shown: string): string {
  const stays = Array.isArray(rule.allowed) ? rule.allowed.join(' or ') : 'a value it accepts';
  return `Value ${shown} for ${section}:${key} is not supported: ${rule.why}; ${key} must be ${stays}`;
}
