-- TPROC-C stock level (TPC-C 2.8): read-only, run by the SQLite driver
-- inside BEGIN DEFERRED ... COMMIT. Distinct items of the district's last
-- 20 orders whose stock in the warehouse is below the threshold.

-- name: sl_stock_count
SELECT count(DISTINCT s_i_id) AS stock_count
FROM district
JOIN order_line ON ol_w_id = d_w_id AND ol_d_id = d_id
               AND ol_o_id >= d_next_o_id - 20 AND ol_o_id < d_next_o_id
JOIN stock ON s_w_id = ol_w_id AND s_i_id = ol_i_id
WHERE d_w_id = :w_id AND d_id = :d_id
  AND s_quantity < :threshold;
