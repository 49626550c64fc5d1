import type { Connection, RowDataPacket } from 'mysql2/promise';
import { ClientSqlVuBase, namesakeIndex, type TxInputs, type TxOutcome } from '@sledge/core';
import { isConnectionError } from '../engine/errors.js';
import type { SqlSet } from './sqlfiles.js';

type Params = Record<string, string | number | null>;
type Row = Record<string, unknown>;

/**
 * target.noStoredProcs: each transaction as client-side statements from
 * client.sql between START TRANSACTION and COMMIT, with `:name` parameters;
 * text protocol, or server-side prepared statements when target.prepared.
 * Same semantics as the procedures; an error rolls the transaction back
 * before it is rethrown (unless the connection is gone).
 */
export class ClientSqlVu extends ClientSqlVuBase {
  private readonly s: Record<string, string>;

  constructor(
    private readonly conn: Connection,
    sql: SqlSet,
    private readonly prepared: boolean,
  ) {
    super();
    this.s = sql.statements('client.sql');
  }

  private sqlOf(name: string): string {
    const s = this.s[name];
    if (s === undefined) throw new Error(`client.sql has no statement named "${name}"`);
    return s;
  }

  private async q(name: string, params: Params = {}): Promise<Row[]> {
    const sql = this.sqlOf(name);
    const [res] = this.prepared
      ? await this.conn.execute<RowDataPacket[]>(sql, params)
      : await this.conn.query<RowDataPacket[]>(sql, params);
    return Array.isArray(res) ? res : [];
  }

  private async one(name: string, params: Params, what: string): Promise<Row> {
    const r = (await this.q(name, params))[0];
    if (!r) throw new Error(`${what} not found`);
    return r;
  }

  protected async rollbackAfter(e: unknown): Promise<void> {
    if (!isConnectionError(e)) await this.q('rollback').catch(() => undefined);
  }

  private async customerByName(c_w_id: number, c_d_id: number, c_last: string): Promise<number> {
    const rows = await this.q('customers_by_name', { c_w_id, c_d_id, c_last });
    if (rows.length === 0) throw new Error(`no customer named ${c_last} in warehouse ${c_w_id} district ${c_d_id}`);
    return Number(rows[namesakeIndex(rows.length)]!.c_id);
  }

  protected async newOrder(i: TxInputs['neworder']): Promise<TxOutcome> {
    const { w_id, d_id, c_id } = i;
    await this.q('begin');
    const cust = await this.one('no_customer', { w_id, d_id, c_id }, `customer ${w_id}/${d_id}/${c_id}`);
    const wh = await this.one('no_warehouse', { w_id }, `warehouse ${w_id}`);
    await this.q('no_district_next', { w_id, d_id });
    const dist = await this.one('no_district', { w_id, d_id }, `district ${w_id}/${d_id}`);
    const o_id = Number(dist.o_id);
    await this.q('no_order', { o_id, d_id, w_id, c_id, ol_cnt: i.ol_cnt, all_local: i.all_local ? 1 : 0 });
    await this.q('no_new_order', { o_id, d_id, w_id });
    let number = 0;
    for (const line of i.lines) {
      number++;
      const item = (await this.q('no_item', { i_id: line.i_id }))[0];
      if (!item) {
        // Unused item number: the specified 1% rollback of the whole order.
        await this.q('rollback');
        return 'rollback';
      }
      const stockKey = { supply_w_id: line.supply_w_id, i_id: line.i_id };
      await this.q('no_stock', { ...stockKey, qty: line.quantity, remote: line.supply_w_id === w_id ? 0 : 1 });
      const stock = await this.one('no_stock_dist', { ...stockKey, d_id }, `stock ${line.supply_w_id}/${line.i_id}`);
      await this.q('no_order_line', {
        o_id,
        d_id,
        w_id,
        number,
        ...stockKey,
        qty: line.quantity,
        price: String(item.i_price),
        w_tax: String(wh.w_tax),
        d_tax: String(dist.d_tax),
        c_discount: String(cust.c_discount),
        dist: String(stock.dist),
      });
    }
    await this.q('commit');
    return 'commit';
  }

  protected async payment(i: TxInputs['payment']): Promise<TxOutcome> {
    const { w_id, d_id, c_w_id, c_d_id, amount } = i;
    await this.q('begin');
    await this.q('pay_warehouse_ytd', { w_id, amount });
    const wh = await this.one('pay_warehouse', { w_id }, `warehouse ${w_id}`);
    await this.q('pay_district_ytd', { w_id, d_id, amount });
    const dist = await this.one('pay_district', { w_id, d_id }, `district ${w_id}/${d_id}`);
    const c_id = i.byname ? await this.customerByName(c_w_id, c_d_id, i.c_last) : i.c_id;
    await this.q('pay_customer_update', { c_id, c_d_id, c_w_id, d_id, w_id, amount });
    await this.one('pay_customer', { c_w_id, c_d_id, c_id }, `customer ${c_w_id}/${c_d_id}/${c_id}`);
    await this.q('pay_history', { c_id, c_d_id, c_w_id, d_id, w_id, amount, w_name: String(wh.w_name), d_name: String(dist.d_name) });
    await this.q('commit');
    return 'commit';
  }

  protected async orderStatus(i: TxInputs['orderstatus']): Promise<TxOutcome> {
    const { w_id, d_id } = i;
    await this.q('begin_read_only');
    const c_id = i.byname ? await this.customerByName(w_id, d_id, i.c_last) : i.c_id;
    await this.one('os_customer', { w_id, d_id, c_id }, `customer ${w_id}/${d_id}/${c_id}`);
    const order = (await this.q('os_order', { w_id, d_id, c_id }))[0];
    if (order) await this.q('os_lines', { w_id, d_id, o_id: Number(order.o_id) });
    await this.q('commit');
    return 'commit';
  }

  protected async delivery(i: TxInputs['delivery']): Promise<TxOutcome> {
    const { w_id, carrier_id } = i;
    await this.q('begin');
    for (let d_id = 1; d_id <= 10; d_id++) {
      const oldest = (await this.q('dl_oldest', { w_id, d_id }))[0];
      if (!oldest) continue;
      const o_id = Number(oldest.no_o_id);
      const key = { w_id, d_id, o_id };
      await this.q('dl_delete', key);
      await this.q('dl_carrier', { ...key, carrier_id });
      const order = await this.one('dl_order_customer', key, `order ${w_id}/${d_id}/${o_id}`);
      await this.q('dl_lines', key);
      const sum = await this.one('dl_amount', key, `order lines of ${w_id}/${d_id}/${o_id}`);
      await this.q('dl_customer', { w_id, d_id, c_id: Number(order.o_c_id), amount: String(sum.amount) });
    }
    await this.q('commit');
    return 'commit';
  }

  protected async stockLevel(i: TxInputs['stocklevel']): Promise<TxOutcome> {
    const { w_id, d_id, threshold } = i;
    await this.q('begin_read_only');
    const d = await this.one('sl_next_o_id', { w_id, d_id }, `district ${w_id}/${d_id}`);
    await this.q('sl_count', { w_id, d_id, threshold, next_o_id: Number(d.d_next_o_id) });
    await this.q('commit');
    return 'commit';
  }

  async close(): Promise<void> {
    await this.conn.end().catch(() => this.conn.destroy());
  }
}
