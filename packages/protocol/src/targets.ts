import Type from 'typebox';
import type { EngineId } from './engines.js';
import { ConnectPool } from './run/pool.js';

/**
 * A target is where a workload runs: the engine, how to connect, and the
 * engine's own driver options (HammerDB's per-database dict, flattened).
 * Connection settings only: a workload's schema options (TPROC-C's
 * partitioning, stored procedures, tablespaces) are its own
 * (workloads/tprocc-schema.ts, `tprocc.schema`).
 *
 * Schema annotations the UI and the redactor read:
 * - `x-secret: true`   the value is a secret: never logged, exported or returned
 * - `x-group`          'connection' | 'schema' | 'driver' (form sections)
 * - `x-bound-to`       on a secret: the fields that say where it goes (endpoint, user,
 *                      TLS). A saved secret is filled in for "********" only when the
 *                      target's values of these fields equal the saved ones.
 * - `x-admin: true`    on a secret: used only by admin sessions (build, delete, the
 *                      monitor's superuser work) on the job's own target, never by a
 *                      virtual user's session, so never by a pool connection.
 */
const secret = (title: string, def: string, boundTo: readonly string[], admin = false) =>
  Type.String({ title, default: def, 'x-secret': true, 'x-bound-to': [...boundTo], ...(admin ? { 'x-admin': true } : {}), 'x-group': 'connection' });

const Host = (def: string) => Type.String({ title: 'Host', default: def, minLength: 1, 'x-group': 'connection' });
const Port = (def: number) => Type.Integer({ title: 'Port', default: def, minimum: 1, maximum: 65535, 'x-group': 'connection' });
const User = (def: string, title = 'User') => Type.String({ title, default: def, minLength: 1, 'x-group': 'connection' });
const Db = (def: string, title = 'Database') => Type.String({ title, default: def, minLength: 1, maxLength: 63, pattern: '^[A-Za-z_][A-Za-z0-9_$]*$', 'x-group': 'connection' });
const Flag = (title: string, group: 'driver' | 'connection', description?: string) =>
  Type.Boolean({ title, default: false, 'x-group': group, ...(description ? { description } : {}) });

export const SqliteTarget = Type.Object(
  {
    engine: Type.Literal('sqlite'),
    file: Type.String({
      title: 'Database file',
      description: 'Path of the SQLite file. Relative paths are resolved against the data directory.',
      default: 'tprocc.sqlite',
      minLength: 1,
      'x-group': 'connection',
    }),
    busyTimeoutMs: Type.Integer({ title: 'Busy timeout (ms)', default: 5000, minimum: 0, maximum: 600000, 'x-group': 'driver' }),
    synchronous: Type.Union([Type.Literal('off'), Type.Literal('normal'), Type.Literal('full')], {
      title: 'PRAGMA synchronous',
      default: 'normal',
      'x-group': 'driver',
    }),
    pool: Type.Optional(ConnectPool),
  },
  { additionalProperties: false, $id: 'SqliteTarget', title: 'SQLite' },
);

export const DuckdbTarget = Type.Object(
  {
    engine: Type.Literal('duckdb'),
    file: Type.String({
      title: 'Database file',
      description: "Path of the DuckDB file, or ':memory:' for an in-memory database (one process only). Relative paths are resolved against the data directory.",
      default: 'tproch.duckdb',
      minLength: 1,
      'x-group': 'connection',
    }),
    memoryLimit: Type.Optional(
      Type.String({
        title: 'Memory limit',
        description: "DuckDB's memory_limit setting, e.g. '4GB' (default: DuckDB's own, 80% of RAM).",
        pattern: '^[0-9]+(\\.[0-9]+)?\\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)$',
        'x-group': 'driver',
      }),
    ),
    pool: Type.Optional(ConnectPool),
  },
  { additionalProperties: false, $id: 'DuckdbTarget', title: 'DuckDB' },
);

export const PostgresqlTarget = Type.Object(
  {
    engine: Type.Literal('postgresql'),
    host: Host('127.0.0.1'),
    port: Port(5432),
    user: User('tpcc'),
    password: secret('Password', 'tpcc', ['host', 'port', 'user', 'sslmode']),
    database: Db('tpcc'),
    superuser: User('postgres', 'Superuser'),
    superuserPassword: secret('Superuser password', 'postgres', ['host', 'port', 'superuser', 'sslmode'], true),
    defaultDatabase: Db('postgres', 'Default database'),
    sslmode: Type.Union(
      [Type.Literal('disable'), Type.Literal('prefer'), Type.Literal('require'), Type.Literal('verify-full')],
      { title: 'SSL mode', default: 'prefer', 'x-group': 'connection' },
    ),
    vacuum: Flag('VACUUM after the run', 'driver'),
    pool: Type.Optional(ConnectPool),
    prepared: Type.Boolean({
      title: 'Named prepared statements',
      description: 'TPROC-C calls and script statements are parsed once per connection (pgbench -M prepared). Turn off behind PgBouncer with pool_mode=transaction (before 1.21 it cannot keep named statements): each statement is then sent unnamed (-M extended)',
      default: true,
      'x-group': 'driver',
    }),
    noStoredProcs: Flag(
      'Client-side SQL (no stored procedures)',
      'driver',
      'TPROC-C: the VUs send each transaction as statements (client.sql) instead of calling routines; the build creates no routines. For PostgreSQL-compatible engines without PL/pgSQL; set tprocc.maxTries to retry serialization failures and deadlocks',
    ),
  },
  { additionalProperties: false, $id: 'PostgresqlTarget', title: 'PostgreSQL' },
);

const mysqlFields = (defaultPass: string) => ({
  host: Host('127.0.0.1'),
  port: Port(3306),
  socket: Type.String({ title: 'Unix socket', description: 'Connect through this socket instead of TCP when set', default: '', 'x-group': 'connection' }),
  user: User('root'),
  password: secret('Password', defaultPass, ['host', 'port', 'socket', 'user', 'ssl', 'sslCa']),
  database: Db('tpcc'),
  ssl: Flag('TLS', 'connection'),
  sslCa: Type.String({ title: 'TLS CA file', default: '', 'x-group': 'connection' }),
  sslCert: Type.String({ title: 'TLS client certificate', default: '', 'x-group': 'connection' }),
  sslKey: Type.String({ title: 'TLS client key', default: '', 'x-group': 'connection' }),
  prepared: Flag('Server-side prepared CALLs', 'driver'),
  noStoredProcs: Flag('Client-side SQL (no stored procedures)', 'driver'),
});

export const MysqlTarget = Type.Object(
  { engine: Type.Literal('mysql'), ...mysqlFields('mysql'), pool: Type.Optional(ConnectPool) },
  { additionalProperties: false, $id: 'MysqlTarget', title: 'MySQL' },
);

export const MariadbTarget = Type.Object(
  {
    engine: Type.Literal('mariadb'),
    ...mysqlFields('maria'),
    purge: Flag('Purge InnoDB history after the run', 'driver'),
    pool: Type.Optional(ConnectPool),
  },
  { additionalProperties: false, $id: 'MariadbTarget', title: 'MariaDB' },
);

export const MssqlTarget = Type.Object(
  {
    engine: Type.Literal('mssql'),
    host: Host('localhost'),
    port: Port(1433),
    authentication: Type.Union([Type.Literal('sql'), Type.Literal('azure-active-directory-password')], {
      title: 'Authentication',
      default: 'sql',
      'x-group': 'connection',
    }),
    user: User('sa'),
    password: secret('Password', 'admin', ['host', 'port', 'authentication', 'user', 'azureClientId', 'azureTenantId', 'encrypt', 'trustServerCertificate']),
    database: Db('tpcc'),
    azureClientId: Type.String({ title: 'Azure AD client id', default: '', 'x-group': 'connection' }),
    azureTenantId: Type.String({ title: 'Azure AD tenant id', default: '', 'x-group': 'connection' }),
    encrypt: Type.Boolean({ title: 'Encrypt connection', default: true, 'x-group': 'connection' }),
    trustServerCertificate: Type.Boolean({ title: 'Trust server certificate', default: true, 'x-group': 'connection' }),
    checkpoint: Flag('CHECKPOINT after the run', 'driver'),
    pool: Type.Optional(ConnectPool),
  },
  { additionalProperties: false, $id: 'MssqlTarget', title: 'SQL Server' },
);

export const OracleTarget = Type.Object(
  {
    engine: Type.Literal('oracle'),
    connectString: Type.String({ title: 'Connect string', description: 'host:port/service_name', default: 'localhost:1521/FREEPDB1', minLength: 1, 'x-group': 'connection' }),
    systemUser: User('system', 'System user'),
    systemPassword: secret('System password', 'manager', ['connectString', 'systemUser'], true),
    user: User('tpcc'),
    password: secret('Password', 'tpcc', ['connectString', 'user']),
    useAwr: Flag('TPM from AWR snapshots', 'driver', 'Requires the Diagnostics Pack licence. Off: TPM from v$sysstat deltas, licence-safe.'),
    checkpoint: Flag('Checkpoint after the run', 'driver'),
    pool: Type.Optional(ConnectPool),
  },
  { additionalProperties: false, $id: 'OracleTarget', title: 'Oracle' },
);

export const Db2Target = Type.Object(
  {
    engine: Type.Literal('db2'),
    host: Host('localhost'),
    port: Port(50000),
    user: User('db2inst1'),
    password: secret('Password', 'ibmdb2', ['host', 'port', 'user']),
    database: Db('tpcc'),
    pool: Type.Optional(ConnectPool),
  },
  { additionalProperties: false, $id: 'Db2Target', title: 'Db2' },
);

export const TARGET_SCHEMAS = {
  sqlite: SqliteTarget,
  postgresql: PostgresqlTarget,
  mysql: MysqlTarget,
  mariadb: MariadbTarget,
  mssql: MssqlTarget,
  oracle: OracleTarget,
  db2: Db2Target,
  duckdb: DuckdbTarget,
} as const;

export type SqliteTarget = Type.Static<typeof SqliteTarget>;
export type PostgresqlTarget = Type.Static<typeof PostgresqlTarget>;
export type MysqlTarget = Type.Static<typeof MysqlTarget>;
export type MariadbTarget = Type.Static<typeof MariadbTarget>;
export type MssqlTarget = Type.Static<typeof MssqlTarget>;
export type OracleTarget = Type.Static<typeof OracleTarget>;
export type Db2Target = Type.Static<typeof Db2Target>;
export type DuckdbTarget = Type.Static<typeof DuckdbTarget>;

export const Target = Type.Union(
  [SqliteTarget, PostgresqlTarget, MysqlTarget, MariadbTarget, MssqlTarget, OracleTarget, Db2Target, DuckdbTarget],
  { $id: 'Target' },
);
export type Target = Type.Static<typeof Target>;
export type TargetOf<E extends EngineId> = Extract<Target, { engine: E }>;

/** Names of fields marked `x-secret` for an engine's target schema. */
export function secretFields(engine: EngineId): string[] {
  const props = (TARGET_SCHEMAS[engine] as unknown as { properties: Record<string, Record<string, unknown>> }).properties;
  return Object.entries(props)
    .filter(([, s]) => s['x-secret'] === true)
    .map(([k]) => k);
}


/** The secrets of an engine's target that only admin sessions use (`x-admin`: superuser, system passwords). */
export function adminSecretFields(engine: EngineId): string[] {
  const props = (TARGET_SCHEMAS[engine] as unknown as { properties: Record<string, Record<string, unknown>> }).properties;
  return Object.entries(props)
    .filter(([, s]) => s['x-secret'] === true && s['x-admin'] === true)
    .map(([k]) => k);
}

/** For each secret field of an engine's target: the fields it is bound to (`x-bound-to`). */
export function secretBindings(engine: EngineId): Record<string, string[]> {
  const props = (TARGET_SCHEMAS[engine] as unknown as { properties: Record<string, Record<string, unknown>> }).properties;
  const out: Record<string, string[]> = {};
  for (const [k, s] of Object.entries(props)) if (s['x-secret'] === true) out[k] = [...((s['x-bound-to'] as string[] | undefined) ?? [])];
  return out;
}

/**
 * The fields that keep a stored secret from going to this target: the bound
 * fields (host, port, user, TLS ...) whose values differ from the saved
 * target's, or ['engine'] for another engine. Empty: the secret may be filled in.
 */
export function secretBindingMismatch(saved: Record<string, unknown>, target: Record<string, unknown>, key: string): string[] {
  if (saved['engine'] !== target['engine'] || typeof target['engine'] !== 'string') return ['engine'];
  const bound = secretBindings(target['engine'] as EngineId)[key] ?? [];
  return bound.filter((f) => JSON.stringify(saved[f] ?? null) !== JSON.stringify(target[f] ?? null));
}

/**
 * The secret values of a target worth scrubbing from text. A secret equal to
 * one of the target's own non-secret values (a password "tpcc" for user
 * "tpcc", HammerDB's default) is left out (the secrets of the target's pool
 * connections count too, with their own values): masking it would hide the user
 * name or database in every line while hiding nothing; `password=...` forms
 * and URLs are masked by scrub() whatever their value.
 */
export function secretValues(t: Target): string[] {
  const r = t as Record<string, unknown>;
  const secret = new Set(secretFields(t.engine));
  const shown = new Set(Object.entries(r).filter(([k, v]) => !secret.has(k) && typeof v === 'string').map(([, v]) => v as string));
  const pooled = ((r['pool'] as { connections?: Record<string, unknown>[] } | undefined)?.connections ?? []).flatMap((c) => [...secret].map((k) => c[k]));
  for (const c of (r['pool'] as { connections?: Record<string, unknown>[] } | undefined)?.connections ?? []) {
    for (const [k, v] of Object.entries(c)) if (!secret.has(k) && typeof v === 'string') shown.add(v);
  }
  return [...new Set([...[...secret].map((k) => r[k]), ...pooled])].filter((v): v is string => typeof v === 'string' && v.length > 0 && v !== '********' && !shown.has(v));
}
