import type { TproccTable } from '@sledge/protocol';

/**
 * Column order of generated rows per table. Bulk loads name these columns
 * explicitly (COPY t (cols...), LOAD DATA ... (cols...), INSERT INTO t (cols...)),
 * so table DDL may order columns as the engine prefers.
 */
export const TPROCC_COLUMNS: Record<TproccTable, readonly string[]> = {
  item: ['i_id', 'i_im_id', 'i_name', 'i_price', 'i_data'],
  warehouse: ['w_id', 'w_name', 'w_street_1', 'w_street_2', 'w_city', 'w_state', 'w_zip', 'w_tax', 'w_ytd'],
  stock: [
    's_i_id', 's_w_id', 's_quantity',
    's_dist_01', 's_dist_02', 's_dist_03', 's_dist_04', 's_dist_05',
    's_dist_06', 's_dist_07', 's_dist_08', 's_dist_09', 's_dist_10',
    's_data', 's_ytd', 's_order_cnt', 's_remote_cnt',
  ],
  district: ['d_id', 'd_w_id', 'd_name', 'd_street_1', 'd_street_2', 'd_city', 'd_state', 'd_zip', 'd_tax', 'd_ytd', 'd_next_o_id'],
  customer: [
    'c_id', 'c_d_id', 'c_w_id', 'c_first', 'c_middle', 'c_last', 'c_street_1', 'c_street_2', 'c_city',
    'c_state', 'c_zip', 'c_phone', 'c_since', 'c_credit', 'c_credit_lim', 'c_discount', 'c_balance',
    'c_ytd_payment', 'c_payment_cnt', 'c_delivery_cnt', 'c_data',
  ],
  history: ['h_c_id', 'h_c_d_id', 'h_c_w_id', 'h_d_id', 'h_w_id', 'h_date', 'h_amount', 'h_data'],
  orders: ['o_id', 'o_d_id', 'o_w_id', 'o_c_id', 'o_entry_d', 'o_carrier_id', 'o_ol_cnt', 'o_all_local'],
  new_order: ['no_o_id', 'no_d_id', 'no_w_id'],
  order_line: [
    'ol_o_id', 'ol_d_id', 'ol_w_id', 'ol_number', 'ol_i_id', 'ol_supply_w_id', 'ol_delivery_d',
    'ol_quantity', 'ol_amount', 'ol_dist_info',
  ],
};
