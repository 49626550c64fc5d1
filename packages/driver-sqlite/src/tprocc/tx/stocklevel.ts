import type { StockLevelInput } from '@sledge/core';
import type { Db } from '../../engine/library.js';
import { namedSql } from '../sql.js';
import type { TxBody } from './body.js';

/**
 * Stock level (TPC-C 2.8), read-only: distinct items of the district's last
 * 20 orders whose stock in the warehouse is below the threshold.
 */
export function stockLevelBody(db: Db): TxBody<StockLevelInput> {
  const sql = namedSql('procedures.sql');
  const count = db.prepare<{ w_id: number; d_id: number; threshold: number }, number>(sql.slev_stock_count).pluck();

  return {
    write: false,
    run(input) {
      count.get({ w_id: input.w_id, d_id: input.d_id, threshold: input.threshold });
      return 'commit';
    },
  };
}
