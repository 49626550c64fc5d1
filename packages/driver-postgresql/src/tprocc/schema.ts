import type { PgTproccTarget } from './target.js';
import { renderOrderLinePartitions } from './partition.js';
import type { Quoting } from '../engine/sql-text.js';
import { namedStatements, scriptStatements, statement } from './sqlfiles.js';

export interface Step {
  /** What the step does, for logs and error messages. */
  what: string;
  sql: string;
}

/**
 * The DDL that creates the nine tables (run as the TPC user in the TPC
 * database). With partitioning on and W >= 200, ORDER_LINE is the
 * hash-partitioned variant followed by its partitions.
 */
export function tableSteps(t: PgTproccTarget, W: number, q: Quoting): Step[] {
  const partitions = renderOrderLinePartitions(W, t.partition, q);
  const steps: Step[] = [];
  for (const [table, sql] of Object.entries(namedStatements('tables.sql'))) {
    if (table === 'order_line' && partitions.length > 0) {
      steps.push({ what: `creating table order_line (hash-partitioned into ${partitions.length})`, sql: statement('partition.sql', 'order_line_partitioned') });
      partitions.forEach((p, i) => steps.push({ what: `creating order_line partition ${i}`, sql: p }));
    } else {
      steps.push({ what: `creating table ${table}`, sql });
    }
  }
  return steps;
}

/** Keys and secondary indexes, added after the load. */
export function indexSteps(): Step[] {
  return scriptStatements('indexes.sql').map((sql) => ({ what: `creating ${describeIndex(sql)}`, sql }));
}

function describeIndex(sql: string): string {
  const m = /CONSTRAINT\s+(\w+)|INDEX\s+(\w+)/i.exec(sql);
  return m ? `index ${m[1] ?? m[2]}` : 'index';
}

/** The five transaction routines: functions (default) or procedures (tprocc.schema.storedProcs). */
export function routineSteps(t: PgTproccTarget): Step[] {
  const file = t.storedProcs ? 'procedures.sql' : 'functions.sql';
  const kind = t.storedProcs ? 'procedure' : 'function';
  return scriptStatements(file).map((sql) => {
    const m = /^CREATE\s+(?:OR\s+REPLACE\s+)?(?:FUNCTION|PROCEDURE)\s+(\w+)/im.exec(sql);
    return { what: m ? `creating ${kind} ${m[1]}` : `preparing ${kind}s`, sql };
  });
}
