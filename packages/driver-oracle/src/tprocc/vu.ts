import { vuSessionName, type TxInputs, type TxOutcome, type VuSession, type VuSessionOptions } from '@sledge/core';
import type { OracleTarget, TxType } from '@sledge/protocol';
import { OraSession, type Binds } from '../engine/connection.js';
import type { OracleDb } from '../engine/library.js';
import { outcomeOf, plsqlCall, type BindSpec } from './params.js';

/** node-oracledb binds for a call's BindSpecs. */
export function oraBinds(specs: readonly BindSpec[], lib: Pick<OracleDb, 'BIND_IN' | 'BIND_OUT' | 'NUMBER' | 'STRING'>): Binds {
  const out: Binds = {};
  for (const b of specs) {
    if (b.dir === 'in') out[b.name] = { dir: lib.BIND_IN, type: b.kind === 'string' ? lib.STRING : lib.NUMBER, val: b.value };
    else out[b.name] = b.kind === 'string' ? { dir: lib.BIND_OUT, type: lib.STRING, maxSize: b.maxSize } : { dir: lib.BIND_OUT, type: lib.NUMBER };
  }
  return out;
}

/**
 * A virtual user: one connection, one PL/SQL call per transaction. The
 * procedures commit (or roll back) themselves; after an error the session
 * rolls back too, so it is clean for the next call. Errors are rethrown as
 * node-oracledb raised them (see classifyError).
 */
export class OracleVu implements VuSession {
  private constructor(private readonly conn: OraSession) {}

  static async open(t: OracleTarget, o: VuSessionOptions): Promise<OracleVu> {
    return new OracleVu(await OraSession.open(t, 'user', vuSessionName(o.vu, o.tag)));
  }

  async run<K extends TxType>(tx: K, input: TxInputs[K]): Promise<TxOutcome> {
    const call = plsqlCall(tx, input);
    try {
      const r = await this.conn.execute(call.sql, oraBinds(call.binds, this.conn.lib));
      return outcomeOf(tx, r.outBinds ?? {});
    } catch (e) {
      await this.conn.rollback().catch(() => undefined);
      throw e;
    }
  }

  close(): Promise<void> {
    return this.conn.close();
  }
}
