import { vuSessionName, type TxInputs, type TxOutcome, type VuSession, type VuSessionOptions } from '@sledge/core';
import type { MssqlTarget, TxType } from '@sledge/protocol';
import { TdsConnection } from '../engine/connection.js';
import { outcomeOf, procCall } from './params.js';
import { identifier } from '../engine/sql-text.js';

/** A virtual user: one connection, one RPC per transaction. Errors are thrown as tedious raised them (see classifyError). */
export class MssqlVu implements VuSession {
  private constructor(private readonly conn: TdsConnection) {}

  static async open(t: MssqlTarget, o: VuSessionOptions): Promise<MssqlVu> {
    const conn = await TdsConnection.open(t, { database: identifier(t.database, 'target.database'), appName: vuSessionName(o.vu, o.tag) });
    return new MssqlVu(conn);
  }

  async run<K extends TxType>(tx: K, input: TxInputs[K]): Promise<TxOutcome> {
    const call = procCall(tx, input);
    const outputs = await this.conn.call(call.procedure, call.params);
    return outcomeOf(tx, outputs);
  }

  close(): Promise<void> {
    return this.conn.close();
  }
}
