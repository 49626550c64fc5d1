import { Readable } from 'node:stream';
import type { Connection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { TPROCH_COLUMNS, type Logger, type TprochGeneratedTable, type TprochLoader } from '@sledge/core';
import { SledgeError } from '@sledge/protocol';
import { connect } from '../engine/connect.js';
import { slices } from '../engine/csv.js';
import { connectError, errnoOf, isLocalInfileRefused, messageOf } from '../engine/errors.js';
import type { Flavour, MyTarget } from '../engine/flavour.js';
import { initialLoadPath, INSERT_BATCH_CHARS, type LoadPath } from '../engine/loader.js';
import type { TprochSqlSet } from './sql.js';

const INFILE_PACKET = 256 * 1024;

/** Rows of TPROC-H csv text ('|' separated, \N null) in batches of at most maxChars characters. */
export function* pipeRowBatches(text: string, maxChars: number): Generator<(string | null)[][]> {
  let batch: (string | null)[][] = [];
  let size = 0;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (batch.length > 0 && size + line.length > maxChars) {
      yield batch;
      batch = [];
      size = 0;
    }
    batch.push(line.split('|').map((v) => (v === '\\N' ? null : v)));
    size += line.length + 1;
  }
  if (batch.length > 0) yield batch;
}

/**
 * A TPROC-H build worker's session, as the TPROC-C loader: one transaction
 * per generated unit, each table through LOAD DATA LOCAL INFILE fed from
 * memory ('|' separated rows, the TPROC-H csv format), or multi-row INSERT
 * batches when the server refuses LOCAL INFILE.
 */
export class MyTprochLoader implements TprochLoader {
  private path: LoadPath = 'load-data';
  private reason = '';
  private announced = false;
  private readonly files = new Map<string, Buffer>();
  private seq = 0;
  private conn!: Connection;

  private constructor(
    private readonly t: MyTarget,
    private readonly flavour: Flavour,
    private readonly sql: TprochSqlSet,
    private readonly log: Logger,
  ) {}

  static async open(t: MyTarget, flavour: Flavour, sql: TprochSqlSet, log: Logger): Promise<MyTprochLoader> {
    const l = new MyTprochLoader(t, flavour, sql, log);
    l.conn = await connect(t, flavour, { useDatabase: true, role: 'loader', infileStreamFactory: (p) => l.stream(p) });
    const [rows] = await l.conn.query<RowDataPacket[]>(sql.statement('admin.sql', 'local_infile'));
    l.path = initialLoadPath(rows[0]?.enabled);
    if (l.path === 'insert') l.reason = 'local_infile is OFF on the server';
    return l;
  }

  /** Answers the server's LOCAL INFILE request with the buffer registered under that name, nothing else. */
  private stream(name: string): Readable {
    const buf = this.files.get(name);
    this.files.delete(name);
    if (!buf) {
      return new Readable({
        read() {
          this.destroy(new Error(`refusing LOCAL INFILE request for "${name}": not a file this session sent`));
        },
      });
    }
    return Readable.from(slices(buf, INFILE_PACKET));
  }

  private announce(): void {
    if (this.announced) return;
    this.announced = true;
    this.log(`${this.flavour.display} TPROC-H loader: ${this.path === 'load-data' ? 'LOAD DATA LOCAL INFILE' : `multi-row INSERT batches (${this.reason})`}`);
  }

  async load(tables: readonly TprochGeneratedTable[]): Promise<void> {
    const c = this.conn;
    try {
      await c.query(this.sql.statement('refresh.sql', 'begin'));
      for (const t of tables) await this.loadTable(t);
      await c.query(this.sql.statement('refresh.sql', 'commit'));
    } catch (e) {
      await c.query(this.sql.statement('refresh.sql', 'rollback')).catch(() => undefined);
      if (e instanceof SledgeError) throw e;
      throw (
        connectError(e, this.t, this.flavour.display) ??
        new SledgeError('SLEDGE_E_DB', `${this.flavour.display} failed loading ${tables.map((t) => t.table).join(', ')}: ${messageOf(e)}`, { cause: e })
      );
    }
  }

  private values(t: TprochGeneratedTable): Record<string, string> {
    return { table: t.table, columns: TPROCH_COLUMNS[t.table].join(', ') };
  }

  private async loadTable(t: TprochGeneratedTable): Promise<void> {
    if (t.rows === 0) return;
    if (Array.isArray(t.data)) throw new Error(`${t.table}: the MySQL loader takes 'csv' data, got tuples`);
    const data = typeof t.data === 'string' ? Buffer.from(t.data, 'latin1') : Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength);
    if (this.path === 'load-data') {
      try {
        await this.loadData(t, data);
        this.announce();
        return;
      } catch (e) {
        if (!isLocalInfileRefused(e)) throw e;
        this.path = 'insert';
        this.reason = `the server refused LOCAL INFILE: error ${errnoOf(e) ?? '?'}`;
      }
    }
    this.announce();
    const insert = this.sql.statement('admin.sql', 'insert_rows', this.values(t));
    for (const batch of pipeRowBatches(data.toString('latin1'), INSERT_BATCH_CHARS)) await this.conn.query(insert, [batch]);
  }

  private async loadData(t: TprochGeneratedTable, data: Buffer): Promise<void> {
    const name = `sledge/tproch/${t.table}/${++this.seq}`;
    this.files.set(name, data);
    try {
      const [r] = await this.conn.query<ResultSetHeader>(this.sql.statement('admin.sql', 'load_data', this.values(t)), [name]);
      if (r.affectedRows !== t.rows || r.warningStatus > 0) {
        const [w] = await this.conn.query<RowDataPacket[]>(this.sql.statement('admin.sql', 'warnings'));
        throw new Error(`${t.table}: LOAD DATA took ${r.affectedRows} of ${t.rows} rows (${w.map((x) => String(x.Message)).join('; ') || 'no warnings'})`);
      }
    } finally {
      this.files.delete(name);
    }
  }

  async close(): Promise<void> {
    await this.conn.end().catch(() => undefined);
  }
}
