import { vuSessionName, type TxInputs, type TxOutcome, type VuSession, type VuSessionOptions } from '@sledge/core';
import type { Db2Target, TxType } from '@sledge/protocol';
import { setClientApplName } from '../engine/ash/clientinfo.js';
import { Db2Session } from '../engine/connection.js';
import { db2Call, outcomeOf, outputsByName } from './params.js';

/**
 * A virtual user: one connection (autocommit), one CALL per transaction.
 * The procedures commit or roll back themselves. Errors are rethrown as
 * ibm_db raised them (see classifyError).
 */
export class Db2Vu implements VuSession {
  private constructor(private readonly conn: Db2Session) {}

  static async open(t: Db2Target, o: VuSessionOptions): Promise<Db2Vu> {
    const conn = await Db2Session.open(t);
    // CLIENT_APPLNAME sledge-vu-<n>~<tag>: the ASH sampler reads the VU from it.
    await setClientApplName(conn, vuSessionName(o.vu, o.tag), o.log);
    return new Db2Vu(conn);
  }

  async run<K extends TxType>(tx: K, input: TxInputs[K]): Promise<TxOutcome> {
    const c = db2Call(tx, input);
    const values = await this.conn.call(c.sql, c.params);
    return outcomeOf(tx, outputsByName(c, values));
  }

  close(): Promise<void> {
    return this.conn.close();
  }
}
