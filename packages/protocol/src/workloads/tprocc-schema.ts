import Type from 'typebox';
import type { EngineId } from '../engines.js';

/**
 * TPROC-C schema options per engine: how the workload lays its tables out
 * (partitioning, stored procedures, tablespaces, storage engine, bulk path).
 * They belong to the workload, not to the connection. The fields keep the
 * names and annotations they had on the targets (`x-group: 'schema'`, the
 * schema page of the form).
 *
 * Transition: the target schemas (targets.ts) still spread these field sets
 * in at their old positions, so today's bodies, saved configurations,
 * HammerDB dict settings and CLI flags validate unchanged. The next step
 * takes them out of the targets and exposes them as `tprocc.schema`;
 * normalizeTproccSchema() then moves an old shape's fields there.
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
} as const satisfies Record<EngineId, unknown>;

export type TproccSchemaOf<E extends EngineId> = Type.Static<(typeof TPROCC_SCHEMA_SCHEMAS)[E]>;

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
