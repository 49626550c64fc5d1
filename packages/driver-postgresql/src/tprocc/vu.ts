import type { Client } from 'pg';
import type { TxInputs, TxOutcome, VuSession, VuSessionOptions } from '@sledge/core';
import { TX_TYPES, type TxType } from '@sledge/protocol';
import type { PgTproccTarget } from './target.js';
import { vuApplicationName } from '../engine/config.js';
import { closeQuietly, connect } from '../engine/connect.js';
import { errorCode, ROLLBACK_SQLSTATE } from '../engine/errors.js';
import { statement } from './sqlfiles.js';

type Param = number | boolean | string | number[];

/** Bind values of one transaction, in the order of the calls.sql statements. */
export function txValues<K extends TxType>(tx: K, input: TxInputs[K]): Param[] {
  switch (tx) {
    case 'neworder': {
      const i = input as TxInputs['neworder'];
      return [i.w_id, i.d_id, i.c_id, i.lines.map((l) => l.i_id), i.lines.map((l) => l.supply_w_id), i.lines.map((l) => l.quantity)];
    }
    case 'payment': {
      const i = input as TxInputs['payment'];
      return [i.w_id, i.d_id, i.c_w_id, i.c_d_id, i.c_id, i.byname, i.c_last, i.amount];
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
      return [i.w_id, i.d_id, i.c_id, i.byname, i.c_last];
    }
    default:
      throw new RangeError(`unknown transaction ${String(tx)}`);
  }
}

/** The call statements of the selected routine variant: SELECT of functions or CALL of procedures. */
export function callStatements(t: PgTproccTarget): Record<TxType, string> {
  const prefix = t.storedProcs ? 'call' : 'select';
  const out = {} as Record<TxType, string>;
  for (const tx of TX_TYPES) out[tx] = statement('calls.sql', `${prefix}_${tx}`);
  return out;
}

/**
 * One virtual user's connection. Each transaction is one round trip: a
 * named (server-side prepared) statement calling the routine in autocommit.
 * The new-order rollback comes back as SQLSTATE SLRBK and is reported as
 * 'rollback'; every other error is thrown for classifyError.
 */
export class PgVuSession implements VuSession {
  private constructor(
    private readonly c: Client,
    private readonly calls: Record<TxType, string>,
    private readonly named: boolean,
  ) {}

  static async open(t: PgTproccTarget, opts: VuSessionOptions): Promise<PgVuSession> {
    const calls = callStatements(t);
    return new PgVuSession(await connect(t, 'user', vuApplicationName(opts.vu, opts.tag), opts.log), calls, t.prepared !== false);
  }

  async run<K extends TxType>(tx: K, input: TxInputs[K]): Promise<TxOutcome> {
    try {
      // Unnamed (target.prepared false): parsed on every call, so that a transaction pooler may hand each call to another server session.
      await this.c.query(this.named ? { name: `sledge_${tx}`, text: this.calls[tx], values: txValues(tx, input) } : { text: this.calls[tx], values: txValues(tx, input) });
      return 'commit';
    } catch (e) {
      if (errorCode(e) === ROLLBACK_SQLSTATE) return 'rollback';
      throw e;
    }
  }

  async close(): Promise<void> {
    await closeQuietly(this.c);
  }
}
