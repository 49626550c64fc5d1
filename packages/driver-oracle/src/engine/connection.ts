import type { OracleTarget } from '@sledge/protocol';
import { oracleConnectAttrs, type OracleRole } from './config.js';
import { connectError } from './errors.js';
import { oracledb, type OraBind, type OraBindDef, type OraConnection, type OracleDb, type OraResult } from './library.js';

export type Row = Record<string, unknown>;
export type Binds = Record<string, OraBind | string | number | null>;

/** One node-oracledb connection with lower-case row keys and typed binds. */
export class OraSession {
  private constructor(
    readonly lib: OracleDb,
    private readonly conn: OraConnection,
  ) {}

  /** Connect as the system user or the TPROC-C user; failures become SledgeErrors naming the field. */
  static async open(t: OracleTarget, role: OracleRole, clientId: string): Promise<OraSession> {
    const lib = oracledb();
    let conn: OraConnection;
    try {
      conn = await lib.getConnection(oracleConnectAttrs(t, role, lib.SYSDBA));
    } catch (e) {
      throw connectError(e, { target: t, role });
    }
    // End-to-end tracing attributes: they show in v$session (and ASH) for this
    // session; the ASH sampler reads the VU from sledge-vu-<n> in either.
    conn.module = clientId;
    conn.clientId = clientId;
    return new OraSession(lib, conn);
  }

  /** Run a query; rows come back as objects keyed by lower-case column name. */
  async query(sql: string, binds: Binds = {}): Promise<Row[]> {
    const r = await this.conn.execute(sql, binds, { outFormat: this.lib.OUT_FORMAT_OBJECT });
    return (r.rows ?? []).map((row) => {
      const out: Row = {};
      for (const [k, v] of Object.entries(row as Record<string, unknown>)) out[k.toLowerCase()] = v;
      return out;
    });
  }

  execute(sql: string, binds: Binds = {}): Promise<OraResult> {
    return this.conn.execute(sql, binds);
  }

  executeMany(sql: string, rows: unknown[][], bindDefs: OraBindDef[]): Promise<{ rowsAffected?: number }> {
    return this.conn.executeMany(sql, rows, { bindDefs, autoCommit: false });
  }

  commit(): Promise<void> {
    return this.conn.commit();
  }

  rollback(): Promise<void> {
    return this.conn.rollback();
  }

  close(): Promise<void> {
    return this.conn.close();
  }
}
