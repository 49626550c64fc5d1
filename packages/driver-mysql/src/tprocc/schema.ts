import { orderLinePartitions } from '@sledge/core';
import { SledgeError } from '@sledge/protocol';
import type { MyTproccTarget } from '../engine/flavour.js';
import { quoteIdent } from '../engine/sql-text.js';
import type { SqlSet } from './sqlfiles.js';

const ENGINE_NAME = /^[A-Za-z0-9_]+$/;

/** tprocc.schema.storageEngine, checked again here because it is pasted into DDL. */
export function storageEngine(t: MyTproccTarget): string {
  if (!ENGINE_NAME.test(t.storageEngine))
    throw new SledgeError('SLEDGE_E_VALIDATION', `Storage engine "${t.storageEngine}" is not a plain name (letters, digits, _).`, {
      field: 'tprocc.schema.storageEngine',
    });
  return t.storageEngine;
}

/** Values of the tables.sql placeholders for a target and warehouse count. */
export function tableValues(sql: SqlSet, t: MyTproccTarget, warehouses: number): Record<string, string> {
  const partitions = orderLinePartitions(warehouses, t.partition);
  return {
    storage_engine: storageEngine(t),
    history_pk: t.historyPk ? sql.statement('options.sql', 'history_pk') : '',
    order_line_partition: partitions > 0 ? sql.statement('options.sql', 'order_line_partition', { partitions: String(partitions) }) : '',
  };
}

/** CREATE TABLE statements, placeholders filled. */
export function tableStatements(sql: SqlSet, t: MyTproccTarget, warehouses: number): string[] {
  return sql.script('tables.sql', tableValues(sql, t, warehouses));
}

export function indexStatements(sql: SqlSet): string[] {
  return sql.script('indexes.sql');
}

export function procedureStatements(sql: SqlSet): string[] {
  return sql.script('procedures.sql');
}

export function dropStatements(sql: SqlSet, t: MyTproccTarget): string[] {
  return sql.script('drop.sql', { database: quoteIdent(t.database) });
}
