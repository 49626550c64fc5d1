import type { Client, QueryResult } from 'pg';
import { ClientSqlVuBase, namesakeIndex, type TxInputs, type TxOutcome, type VuSessionOptions } from '@sledge/core';
import type { PgTproccTarget } from './target.js';
import { vuApplicationName } from '../engine/config.js';
import { closeQuietly, connect } from '../engine/connect.js';
import { classifyError } from '../engine/errors.js';
import { namedStatements } from './sqlfiles.js';

type Param = number | string | null | number[] | string[];
type Row = Record<string, unknown>;

/** Statements sent as plain text (transaction control): nothing to bind or plan. */
const CONTROL = new Set(['begin', 'begin_read_only', 'commit', 'rollback']);

/**
 * target.noStoredProcs: a VU that sends each transaction's statements itself
 * (client.sql) between BEGIN and COMMIT, calling no routine: the path for
 * PostgreSQL-compatible engines without PL/pgSQL. Same rows read, locked and
 * written, in the same order, as functions.sql; an unused item rolls the new
 * order back before anything is written and is reported as 'rollback'.
 *
 * Statements are named prepared statements (prepared once per connection)
 * unless target.prepared is off. Any error rolls the open transaction back
 * (unless the connection is gone) and is rethrown untouched, so classifyError
 * sees its SQLSTATE: 40001 and 40P01 are the 'serialization' class, which the
 * run retries with the same input up to tprocc.maxTries (tprocc.retryOn) and
 * counts as retries.
 */
export class PgClientSqlVu extends ClientSqlVuBase {

  constructor(
    private readonly c: Client,
    private readonly s: Record<string, string>,
    private readonly named: boolean,
  ) {
    super();
  }

  static async open(t: PgTproccTarget, opts: VuSessionOptions): Promise<PgClientSqlVu> {
    const s = namedStatements('client.sql');
    return new PgClientSqlVu(await connect(t, 'user', vuApplicationName(opts.vu, opts.tag), opts.log), s, t.prepared !== false);
  }

  private async exec(name: string, values: Param[] = []): Promise<QueryResult<Row>> {
    const text = this.s[name];
    if (text === undefined) throw new Error(`client.sql has no statement named "${name}"`);
    if (CONTROL.has(name)) return this.c.query<Row>(text);
    return this.c.query<Row>(this.named ? { name: `sledge_c_${name}`, text, values } : { text, values });
  }

  private async rows(name: string, values: Param[]): Promise<Row[]> {
    return (await this.exec(name, values)).rows;
  }

  private async one(name: string, values: Param[], what: string): Promise<Row> {
    const r = (await this.rows(name, values))[0];
    if (!r) throw new Error(`${what} not found`);
    return r;
  }

  protected async rollbackAfter(e: unknown): Promise<void> {
    if (classifyError(e).kind !== 'connection') await this.c.query('ROLLBACK').catch(() => undefined);
  }

  private async customerByName(w_id: number, d_id: number, c_last: string): Promise<number> {
    const rows = await this.rows('customers_by_name', [w_id, d_id, c_last]);
    if (rows.length === 0) throw new Error(`no customer named ${c_last} in warehouse ${w_id} district ${d_id}`);
    return Number(rows[namesakeIndex(rows.length)]!.c_id);
  }

  protected async newOrder(i: TxInputs['neworder']): Promise<TxOutcome> {
    const { w_id, d_id, c_id, lines } = i;
    const ids = lines.map((l) => l.i_id);
    await this.exec('begin');
    // Every line's item first: an unused item (the specified 1%) rolls back before anything is written.
    const price = new Map((await this.rows('no_items', [ids])).map((r) => [Number(r.i_id), String(r.i_price)]));
    if (ids.some((id) => !price.has(id))) {
      await this.exec('rollback');
      return 'rollback';
    }
    const wh = await this.one('no_warehouse', [w_id], `warehouse ${w_id}`);
    const dist = await this.one('no_district', [w_id, d_id], `district ${w_id}/${d_id}`);
    const cust = await this.one('no_customer', [w_id, d_id, c_id], `customer ${w_id}/${d_id}/${c_id}`);
    const o_id = Number(dist.o_id);
    const allLocal = lines.every((l) => l.supply_w_id === w_id) ? 1 : 0;
    await this.exec('no_order', [o_id, d_id, w_id, c_id, lines.length, allLocal]);
    await this.exec('no_new_order', [o_id, d_id, w_id]);
    // One stock UPDATE per line in line order: rows locked in line order, a repeated row updated once per line.
    const dists: string[] = [];
    for (const l of lines) {
      const s = await this.one('no_stock', [l.supply_w_id, l.i_id, l.quantity, w_id, d_id], `stock ${l.supply_w_id}/${l.i_id}`);
      dists.push(String(s.dist));
    }
    await this.exec('no_order_lines', [
      o_id,
      d_id,
      w_id,
      String(wh.w_tax),
      String(dist.d_tax),
      String(cust.c_discount),
      ids,
      lines.map((l) => l.supply_w_id),
      lines.map((l) => l.quantity),
      ids.map((id) => price.get(id)!),
      dists,
    ]);
    await this.exec('commit');
    return 'commit';
  }

  protected async payment(i: TxInputs['payment']): Promise<TxOutcome> {
    const { w_id, d_id, c_w_id, c_d_id } = i;
    const amount = String(i.amount);
    await this.exec('begin');
    // The namesakes first (no lock), as payment in functions.sql: the warehouse and district rows are not held while they are read.
    const c_id = i.byname ? await this.customerByName(c_w_id, c_d_id, i.c_last) : i.c_id;
    const wh = await this.one('pay_warehouse', [w_id, amount], `warehouse ${w_id}`);
    const dist = await this.one('pay_district', [w_id, d_id, amount], `district ${w_id}/${d_id}`);
    await this.one('pay_customer', [c_w_id, c_d_id, c_id, d_id, w_id, amount], `customer ${c_w_id}/${c_d_id}/${c_id}`);
    await this.exec('pay_history', [c_id, c_d_id, c_w_id, d_id, w_id, amount, String(wh.w_name), String(dist.d_name)]);
    await this.exec('commit');
    return 'commit';
  }

  protected async orderStatus(i: TxInputs['orderstatus']): Promise<TxOutcome> {
    const { w_id, d_id } = i;
    await this.exec('begin_read_only');
    const c_id = i.byname ? await this.customerByName(w_id, d_id, i.c_last) : i.c_id;
    await this.one('os_customer', [w_id, d_id, c_id], `customer ${w_id}/${d_id}/${c_id}`);
    const order = (await this.rows('os_order', [w_id, d_id, c_id]))[0];
    if (order) await this.exec('os_lines', [w_id, d_id, Number(order.o_id)]);
    await this.exec('commit');
    return 'commit';
  }

  protected async delivery(i: TxInputs['delivery']): Promise<TxOutcome> {
    const { w_id, carrier_id } = i;
    await this.exec('begin');
    for (let d_id = 1; d_id <= 10; d_id++) {
      // The oldest undelivered order; if a concurrent delivery deleted it first, look again.
      let o_id: number | null = null;
      for (;;) {
        const v = (await this.rows('dl_oldest', [w_id, d_id]))[0]?.o_id;
        o_id = v === null || v === undefined ? null : Number(v);
        if (o_id === null || ((await this.exec('dl_delete', [w_id, d_id, o_id])).rowCount ?? 0) > 0) break;
      }
      if (o_id === null) continue;
      const order = await this.one('dl_order', [w_id, d_id, o_id, carrier_id], `order ${w_id}/${d_id}/${o_id}`);
      const sum = await this.one('dl_lines', [w_id, d_id, o_id], `order lines of ${w_id}/${d_id}/${o_id}`);
      await this.exec('dl_customer', [w_id, d_id, Number(order.o_c_id), String(sum.amount)]);
    }
    await this.exec('commit');
    return 'commit';
  }

  protected async stockLevel(i: TxInputs['stocklevel']): Promise<TxOutcome> {
    const { w_id, d_id, threshold } = i;
    await this.exec('begin_read_only');
    const d = await this.one('sl_next_o_id', [w_id, d_id], `district ${w_id}/${d_id}`);
    await this.exec('sl_count', [w_id, d_id, Number(d.d_next_o_id), threshold]);
    await this.exec('commit');
    return 'commit';
  }

  async close(): Promise<void> {
    await closeQuietly(this.c);
  }
}
