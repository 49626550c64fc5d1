import type { Connection, ProcedureCallPacket, RowDataPacket } from 'mysql2/promise';
import type { TxInputs, TxOutcome, VuSession } from '@sledge/core';
import { TX_TYPES, type TxType } from '@sledge/protocol';
import type { SqlSet } from './sqlfiles.js';

export type CallParams = (string | number)[];

/** Procedure arguments of one transaction, in the order of procedures.sql. */
export function callParams<K extends TxType>(tx: K, input: TxInputs[K]): CallParams {
  switch (tx) {
    case 'neworder': {
      const i = input as TxInputs['neworder'];
      return [
        i.w_id,
        i.d_id,
        i.c_id,
        i.ol_cnt,
        i.all_local ? 1 : 0,
        i.lines.map((l) => l.i_id).join(','),
        i.lines.map((l) => l.supply_w_id).join(','),
        i.lines.map((l) => l.quantity).join(','),
      ];
    }
    case 'payment': {
      const i = input as TxInputs['payment'];
      return [i.w_id, i.d_id, i.c_w_id, i.c_d_id, i.c_id, i.byname ? 1 : 0, i.c_last, i.amount];
    }
    case 'delivery': {
      const i = input as TxInputs['delivery'];
      return [i.w_id, i.carrier_id];
    }
    case 'stocklevel': {
      const i = input as TxInputs['stocklevel'];
      return [i.w_id, i.d_id, i.threshold];
    }
    case 'orderstatus': {
      const i = input as TxInputs['orderstatus'];
      return [i.w_id, i.d_id, i.c_id, i.byname ? 1 : 0, i.c_last];
    }
    default:
      throw new RangeError(`unknown transaction ${String(tx)}`);
  }
}

/** NEWORD's result row says whether the order was rolled back (the unused-item case). */
export function rolledBack(result: unknown): boolean {
  if (!Array.isArray(result)) return false;
  const first: unknown = result[0];
  if (!Array.isArray(first)) return false;
  const row: unknown = first[0];
  return typeof row === 'object' && row !== null && Number((row as Record<string, unknown>).rolled_back) === 1;
}

/** CALL statements per transaction type (calls.sql). */
export function callStatements(sql: SqlSet): Record<TxType, string> {
  return Object.fromEntries(TX_TYPES.map((t) => [t, sql.statement('calls.sql', t)])) as Record<TxType, string>;
}

/**
 * A VU that calls the stored procedures: one round trip per transaction.
 * Text protocol by default; server-side prepared CALLs (execute, prepared
 * once per connection by mysql2) when target.prepared.
 */
export class ProcedureVu implements VuSession {
  constructor(
    private readonly conn: Connection,
    private readonly calls: Record<TxType, string>,
    private readonly prepared: boolean,
  ) {}

  async run<K extends TxType>(tx: K, input: TxInputs[K]): Promise<TxOutcome> {
    const sql = this.calls[tx];
    const params = callParams(tx, input);
    const [res] = this.prepared
      ? await this.conn.execute<ProcedureCallPacket<RowDataPacket[]>>(sql, params)
      : await this.conn.query<ProcedureCallPacket<RowDataPacket[]>>(sql, params);
    return tx === 'neworder' && rolledBack(res) ? 'rollback' : 'commit';
  }

  async close(): Promise<void> {
    await this.conn.end().catch(() => this.conn.destroy());
  }
}
