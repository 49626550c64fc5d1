import Type from 'typebox';
import type { EngineId } from '../engines.js';
import { SledgeError } from '../errors.js';
import { validate } from '../validate.js';

/**
 * TPROC-C schema options per engine: how the workload lays its tables out
 * (partitioning, stored procedures, tablespaces, storage engine, bulk path).
 * They belong to the workload, not to the connection. The fields keep the
 * names and annotations they had on the targets (`x-group: 'schema'`, the
 * schema page of the form).
 *
 * A job body carries them as `tprocc.schema`, checked against the target's
 * engine. Bodies, scripts and saved configurations of the old shape (these
 * fields under `target`) are accepted: normalizeTproccSchema() moves them.
 */
const flag = (title: string, description?: string) =>
  Type.Boolean({ title, default: false, 'x-group': 'schema', ...(description ? { description } : {}) });
const oracleName = (title: string, def: string) => Type.String({ title, default: def, pattern: '^[A-Za-z0-9_$#]+$', 'x-group': 'schema' });

export const POSTGRESQL_TPROCC_SCHEMA_FIELDS = {
  tablespace: Type.String({ title: 'Tablespace', default: 'pg_default', minLength: 1, 'x-group': 'schema' }),
  storedProcs: flag('PG11+ procedures instead of functions', 'Create and call the five transactions as procedures (CALL) rather than functions (SELECT).'),
  partition: flag('Partition ORDER_LINE', 'Hash-partition ORDER_LINE by warehouse into floor(W/100) partitions; applies only when W >= 200.'),
};

export const MYSQL_TPROCC_SCHEMA_FIELDS = {
  storageEngine: Type.String({ title: 'Storage engine', default: 'innodb', pattern: '^[A-Za-z0-9_]+$', 'x-group': 'schema' }),
  partition: flag('Partition ORDER_LINE', 'Hash-partition ORDER_LINE by warehouse; applies only when W >= 200.'),
  historyPk: flag('HISTORY primary key', 'Add an invisible auto-increment primary key to HISTORY (MySQL >= 8.0.30)'),
};

export const MSSQL_TPROCC_SCHEMA_FIELDS = {
  useBulk: Type.Boolean({ title: 'Bulk load (TDS bulk copy)', default: true, 'x-group': 'schema' }),
};

export const ORACLE_TPROCC_SCHEMA_FIELDS = {
  defaultTablespace: oracleName('Default tablespace', 'USERS'),
  orderLineTablespace: oracleName('ORDER_LINE tablespace', 'USERS'),
  tempTablespace: oracleName('Temporary tablespace', 'TEMP'),
  partition: flag('Partition ORDER_LINE'),
};

export const DB2_TPROCC_SCHEMA_FIELDS = {
  tablespace: Type.String({ title: 'Tablespace', default: 'USERSPACE1', pattern: '^[A-Za-z0-9_]+$', 'x-group': 'schema' }),
  partition: flag('Partition ORDER_LINE'),
};

const schemaObject = <P extends Record<string, Type.TSchema>>(properties: P, id: string) => Type.Object(properties, { additionalProperties: false, $id: id });

/** One TypeBox object per engine: the TPROC-C schema options it takes. */
export const TPROCC_SCHEMA_SCHEMAS = {
  sqlite: schemaObject({}, 'SqliteTproccSchema'),
  postgresql: schemaObject(POSTGRESQL_TPROCC_SCHEMA_FIELDS, 'PostgresqlTproccSchema'),
  mysql: schemaObject(MYSQL_TPROCC_SCHEMA_FIELDS, 'MysqlTproccSchema'),
  mariadb: schemaObject(MYSQL_TPROCC_SCHEMA_FIELDS, 'MariadbTproccSchema'),
  mssql: schemaObject(MSSQL_TPROCC_SCHEMA_FIELDS, 'MssqlTproccSchema'),
  oracle: schemaObject(ORACLE_TPROCC_SCHEMA_FIELDS, 'OracleTproccSchema'),
  db2: schemaObject(DB2_TPROCC_SCHEMA_FIELDS, 'Db2TproccSchema'),
  // DuckDB builds a TPROC-C schema for CH-benCHmark but runs no TPROC-C transactions (driver-duckdb: optimistic concurrency); no options.
  duckdb: schemaObject({}, 'DuckdbTproccSchema'),
} as const satisfies Record<EngineId, unknown>;

export type TproccSchemaOf<E extends EngineId> = Type.Static<(typeof TPROCC_SCHEMA_SCHEMAS)[E]>;

/** Any engine's TPROC-C schema options (which engine's: the job's target's). */
export const TproccSchema = Type.Union(Object.values(TPROCC_SCHEMA_SCHEMAS) as Type.TSchema[] as [Type.TSchema], {
  title: 'Schema options',
  description: "The target engine's TPROC-C schema options (partitioning, stored procedures, tablespaces ...)",
}) as unknown as Type.TUnion<[
  (typeof TPROCC_SCHEMA_SCHEMAS)['sqlite'],
  (typeof TPROCC_SCHEMA_SCHEMAS)['postgresql'],
  (typeof TPROCC_SCHEMA_SCHEMAS)['mysql'],
  (typeof TPROCC_SCHEMA_SCHEMAS)['mariadb'],
  (typeof TPROCC_SCHEMA_SCHEMAS)['mssql'],
  (typeof TPROCC_SCHEMA_SCHEMAS)['oracle'],
  (typeof TPROCC_SCHEMA_SCHEMAS)['db2'],
  (typeof TPROCC_SCHEMA_SCHEMAS)['duckdb'],
]>;
export type TproccSchema = { [E in EngineId]: TproccSchemaOf<E> }[EngineId];

/** An engine's TPROC-C schema options from a body's `tprocc.schema` (missing: every default), checked against that engine's fields. */
export function parseTproccSchema<E extends EngineId>(engine: E, value: unknown, prefix = 'tprocc.schema'): TproccSchemaOf<E> {
  const v = value === undefined ? {} : value;
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `${prefix} must be an object`, { field: prefix });
  }
  return validate(TPROCC_SCHEMA_SCHEMAS[engine], v, prefix) as TproccSchemaOf<E>;
}

/** The names of an engine's TPROC-C schema options. */
export function tproccSchemaFields(engine: EngineId): string[] {
  return Object.keys((TPROCC_SCHEMA_SCHEMAS[engine] as unknown as { properties: Record<string, unknown> }).properties);
}

/** An engine's TPROC-C schema options as a target of the old shape carries them. */
export function tproccSchemaOf(target: { engine: EngineId } & Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of tproccSchemaFields(target.engine)) if (k in target) out[k] = target[k];
  return out;
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * A body or saved configuration of the old shape (schema options under
 * `target`) in the new one (under `tprocc.schema`). A value already under
 * tprocc.schema wins over the target's. Anything else is returned as it is
 * (validation reports it); the input is not changed.
 */
export function normalizeTproccSchema<B>(body: B): B {
  if (!isRecord(body) || !isRecord(body['target'])) return body;
  const target = body['target'];
  const engine = target['engine'];
  if (typeof engine !== 'string' || !Object.hasOwn(TPROCC_SCHEMA_SCHEMAS, engine)) return body;
  const fields = tproccSchemaFields(engine as EngineId).filter((k) => k in target);
  if (fields.length === 0) return body;
  const tprocc = isRecord(body['tprocc']) ? body['tprocc'] : {};
  const schema = isRecord(tprocc['schema']) ? tprocc['schema'] : {};
  const moved: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(target)) (fields.includes(k) ? moved : rest)[k] = v;
  return { ...body, target: rest, tprocc: { ...tprocc, schema: { ...moved, ...schema } } } as B;
}
