-- The 22 CH-benCHmark analytic queries for PostgreSQL, written for Sledge
-- from the published query definitions (docs/chbench.md): TPC-H's queries
-- on TPROC-C's tables plus REGION, NATION and SUPPLIER. Their constants are
-- fixed (no substitution parameters, nothing to fill). Sledge's departures,
-- the same on every engine:
-- * Upper date bounds. The published 2012-01-02, 2020-01-01 and 2020-01-02
--   bounds (Q4, Q6, Q7, Q8, Q12, Q14) lie before the dates a build writes
--   today; they are 2100-01-01 here, so those queries see every row, as
--   they did on data loaded when the queries were published.
-- * Q8 divides by NULLIF(sum(ol_amount), 0): delivered order lines carry
--   ol_amount 0.00, and a year whose lines are all delivered has no share.
-- * Q13 names its count (c_count) inside the derived table.
-- Stock (s_w_id, s_i_id) is supplied by su_suppkey = mod(s_w_id * s_i_id,
-- 10000); a customer's nation is n_nationkey = ascii(substr(c_state, 1, 1)).
-- Runnable with psql as they are.
-- DuckDB reads this file too (packages/sql/src/aliases.ts): mod(), ascii(),
-- substr(), extract(year FROM ...) and TIMESTAMP literals are DuckDB's
-- functions and syntax as well (its extract() returns a BIGINT year), so the
-- text runs with the duckdb shell as it is. A change here must run on both.

-- name: q1
SELECT ol_number,
       sum(ol_quantity) AS sum_qty,
       sum(ol_amount) AS sum_amount,
       avg(ol_quantity) AS avg_qty,
       avg(ol_amount) AS avg_amount,
       count(*) AS count_order
  FROM order_line
 WHERE ol_delivery_d > TIMESTAMP '2007-01-02 00:00:00'
 GROUP BY ol_number
 ORDER BY ol_number;

-- name: q2
SELECT su_suppkey, su_name, n_name, i_id, i_name, su_address, su_phone, su_comment
  FROM item, supplier, stock, nation, region,
       (SELECT s_i_id AS m_i_id, min(s_quantity) AS m_s_quantity
          FROM stock, supplier, nation, region
         WHERE mod(s_w_id * s_i_id, 10000) = su_suppkey
           AND su_nationkey = n_nationkey
           AND n_regionkey = r_regionkey
           AND r_name LIKE 'Europ%'
         GROUP BY s_i_id) m
 WHERE i_id = s_i_id
   AND mod(s_w_id * s_i_id, 10000) = su_suppkey
   AND su_nationkey = n_nationkey
   AND n_regionkey = r_regionkey
   AND i_data LIKE '%b'
   AND r_name LIKE 'Europ%'
   AND i_id = m_i_id
   AND s_quantity = m_s_quantity
 ORDER BY n_name, su_name, i_id;

-- name: q3
SELECT ol_o_id, ol_w_id, ol_d_id, sum(ol_amount) AS revenue, o_entry_d
  FROM customer, new_order, orders, order_line
 WHERE c_state LIKE 'A%'
   AND c_id = o_c_id
   AND c_w_id = o_w_id
   AND c_d_id = o_d_id
   AND no_w_id = o_w_id
   AND no_d_id = o_d_id
   AND no_o_id = o_id
   AND ol_w_id = o_w_id
   AND ol_d_id = o_d_id
   AND ol_o_id = o_id
   AND o_entry_d > TIMESTAMP '2007-01-02 00:00:00'
 GROUP BY ol_o_id, ol_w_id, ol_d_id, o_entry_d
 ORDER BY revenue DESC, o_entry_d;

-- name: q4
SELECT o_ol_cnt, count(*) AS order_count
  FROM orders
 WHERE o_entry_d >= TIMESTAMP '2007-01-02 00:00:00'
   AND o_entry_d < TIMESTAMP '2100-01-01 00:00:00'
   AND EXISTS (SELECT *
                 FROM order_line
                WHERE o_id = ol_o_id
                  AND o_w_id = ol_w_id
                  AND o_d_id = ol_d_id
                  AND ol_delivery_d >= o_entry_d)
 GROUP BY o_ol_cnt
 ORDER BY o_ol_cnt;

-- name: q5
SELECT n_name, sum(ol_amount) AS revenue
  FROM customer, orders, order_line, stock, supplier, nation, region
 WHERE c_id = o_c_id
   AND c_w_id = o_w_id
   AND c_d_id = o_d_id
   AND ol_o_id = o_id
   AND ol_w_id = o_w_id
   AND ol_d_id = o_d_id
   AND ol_w_id = s_w_id
   AND ol_i_id = s_i_id
   AND mod(s_w_id * s_i_id, 10000) = su_suppkey
   AND ascii(substr(c_state, 1, 1)) = su_nationkey
   AND su_nationkey = n_nationkey
   AND n_regionkey = r_regionkey
   AND r_name = 'Europe'
   AND o_entry_d >= TIMESTAMP '2007-01-02 00:00:00'
 GROUP BY n_name
 ORDER BY revenue DESC;

-- name: q6
SELECT sum(ol_amount) AS revenue
  FROM order_line
 WHERE ol_delivery_d >= TIMESTAMP '1999-01-01 00:00:00'
   AND ol_delivery_d < TIMESTAMP '2100-01-01 00:00:00'
   AND ol_quantity BETWEEN 1 AND 100000;

-- name: q7
SELECT su_nationkey AS supp_nation,
       substr(c_state, 1, 1) AS cust_nation,
       extract(year FROM o_entry_d) AS l_year,
       sum(ol_amount) AS revenue
  FROM supplier, stock, order_line, orders, customer, nation n1, nation n2
 WHERE ol_supply_w_id = s_w_id
   AND ol_i_id = s_i_id
   AND mod(s_w_id * s_i_id, 10000) = su_suppkey
   AND ol_w_id = o_w_id
   AND ol_d_id = o_d_id
   AND ol_o_id = o_id
   AND c_id = o_c_id
   AND c_w_id = o_w_id
   AND c_d_id = o_d_id
   AND su_nationkey = n1.n_nationkey
   AND ascii(substr(c_state, 1, 1)) = n2.n_nationkey
   AND ((n1.n_name = 'Germany' AND n2.n_name = 'Cambodia')
     OR (n1.n_name = 'Cambodia' AND n2.n_name = 'Germany'))
   AND ol_delivery_d BETWEEN TIMESTAMP '2007-01-02 00:00:00' AND TIMESTAMP '2100-01-01 00:00:00'
 GROUP BY su_nationkey, substr(c_state, 1, 1), extract(year FROM o_entry_d)
 ORDER BY su_nationkey, cust_nation, l_year;

-- name: q8
SELECT extract(year FROM o_entry_d) AS l_year,
       sum(CASE WHEN n2.n_name = 'Germany' THEN ol_amount ELSE 0 END) / NULLIF(sum(ol_amount), 0) AS mkt_share
  FROM item, supplier, stock, order_line, orders, customer, nation n1, nation n2, region
 WHERE i_id = s_i_id
   AND ol_i_id = s_i_id
   AND ol_supply_w_id = s_w_id
   AND mod(s_w_id * s_i_id, 10000) = su_suppkey
   AND ol_w_id = o_w_id
   AND ol_d_id = o_d_id
   AND ol_o_id = o_id
   AND c_id = o_c_id
   AND c_w_id = o_w_id
   AND c_d_id = o_d_id
   AND n1.n_nationkey = ascii(substr(c_state, 1, 1))
   AND n1.n_regionkey = r_regionkey
   AND ol_i_id < 1000
   AND r_name = 'Europe'
   AND su_nationkey = n2.n_nationkey
   AND o_entry_d BETWEEN TIMESTAMP '2007-01-02 00:00:00' AND TIMESTAMP '2100-01-01 00:00:00'
   AND i_data LIKE '%b'
   AND i_id = ol_i_id
 GROUP BY extract(year FROM o_entry_d)
 ORDER BY l_year;

-- name: q9
SELECT n_name, extract(year FROM o_entry_d) AS l_year, sum(ol_amount) AS sum_profit
  FROM item, stock, supplier, order_line, orders, nation
 WHERE ol_i_id = s_i_id
   AND ol_supply_w_id = s_w_id
   AND mod(s_w_id * s_i_id, 10000) = su_suppkey
   AND ol_w_id = o_w_id
   AND ol_d_id = o_d_id
   AND ol_o_id = o_id
   AND ol_i_id = i_id
   AND su_nationkey = n_nationkey
   AND i_data LIKE '%BB'
 GROUP BY n_name, extract(year FROM o_entry_d)
 ORDER BY n_name, l_year DESC;

-- name: q10
SELECT c_id, c_last, sum(ol_amount) AS revenue, c_city, c_phone, n_name
  FROM customer, orders, order_line, nation
 WHERE c_id = o_c_id
   AND c_w_id = o_w_id
   AND c_d_id = o_d_id
   AND ol_w_id = o_w_id
   AND ol_d_id = o_d_id
   AND ol_o_id = o_id
   AND o_entry_d >= TIMESTAMP '2007-01-02 00:00:00'
   AND o_entry_d <= ol_delivery_d
   AND n_nationkey = ascii(substr(c_state, 1, 1))
 GROUP BY c_id, c_last, c_city, c_phone, n_name
 ORDER BY revenue DESC;

-- name: q11
SELECT s_i_id, sum(s_order_cnt) AS ordercount
  FROM stock, supplier, nation
 WHERE mod(s_w_id * s_i_id, 10000) = su_suppkey
   AND su_nationkey = n_nationkey
   AND n_name = 'Germany'
 GROUP BY s_i_id
HAVING sum(s_order_cnt) > (SELECT sum(s_order_cnt) * 0.005
                             FROM stock, supplier, nation
                            WHERE mod(s_w_id * s_i_id, 10000) = su_suppkey
                              AND su_nationkey = n_nationkey
                              AND n_name = 'Germany')
 ORDER BY ordercount DESC;

-- name: q12
SELECT o_ol_cnt,
       sum(CASE WHEN o_carrier_id = 1 OR o_carrier_id = 2 THEN 1 ELSE 0 END) AS high_line_count,
       sum(CASE WHEN o_carrier_id <> 1 AND o_carrier_id <> 2 THEN 1 ELSE 0 END) AS low_line_count
  FROM orders, order_line
 WHERE ol_w_id = o_w_id
   AND ol_d_id = o_d_id
   AND ol_o_id = o_id
   AND o_entry_d <= ol_delivery_d
   AND ol_delivery_d < TIMESTAMP '2100-01-01 00:00:00'
 GROUP BY o_ol_cnt
 ORDER BY o_ol_cnt;

-- name: q13
SELECT c_count, count(*) AS custdist
  FROM (SELECT c_id, count(o_id) AS c_count
          FROM customer
          LEFT OUTER JOIN orders
            ON c_w_id = o_w_id
           AND c_d_id = o_d_id
           AND c_id = o_c_id
           AND o_carrier_id > 8
         GROUP BY c_id) c_orders
 GROUP BY c_count
 ORDER BY custdist DESC, c_count DESC;

-- name: q14
SELECT 100.00 * sum(CASE WHEN i_data LIKE 'PR%' THEN ol_amount ELSE 0 END) / (1 + sum(ol_amount)) AS promo_revenue
  FROM order_line, item
 WHERE ol_i_id = i_id
   AND ol_delivery_d >= TIMESTAMP '2007-01-02 00:00:00'
   AND ol_delivery_d < TIMESTAMP '2100-01-01 00:00:00';

-- name: q15
WITH revenue (supplier_no, total_revenue) AS (
  SELECT mod(s_w_id * s_i_id, 10000), sum(ol_amount)
    FROM order_line, stock
   WHERE ol_i_id = s_i_id
     AND ol_supply_w_id = s_w_id
     AND ol_delivery_d >= TIMESTAMP '2007-01-02 00:00:00'
   GROUP BY mod(s_w_id * s_i_id, 10000))
SELECT su_suppkey, su_name, su_address, su_phone, total_revenue
  FROM supplier, revenue
 WHERE su_suppkey = supplier_no
   AND total_revenue = (SELECT max(total_revenue) FROM revenue)
 ORDER BY su_suppkey;

-- name: q16
SELECT i_name,
       substr(i_data, 1, 3) AS brand,
       i_price,
       count(DISTINCT mod(s_w_id * s_i_id, 10000)) AS supplier_cnt
  FROM stock, item
 WHERE i_id = s_i_id
   AND i_data NOT LIKE 'zz%'
   AND mod(s_w_id * s_i_id, 10000) NOT IN (SELECT su_suppkey FROM supplier WHERE su_comment LIKE '%bad%')
 GROUP BY i_name, substr(i_data, 1, 3), i_price
 ORDER BY supplier_cnt DESC;

-- name: q17
SELECT sum(ol_amount) / 2.0 AS avg_yearly
  FROM order_line,
       (SELECT i_id, avg(ol_quantity) AS a
          FROM item, order_line
         WHERE i_data LIKE '%b'
           AND ol_i_id = i_id
         GROUP BY i_id) t
 WHERE ol_i_id = t.i_id
   AND ol_quantity < t.a;

-- name: q18
SELECT c_last, c_id AS o_id, o_entry_d, o_ol_cnt, sum(ol_amount) AS amount
  FROM customer, orders, order_line
 WHERE c_id = o_c_id
   AND c_w_id = o_w_id
   AND c_d_id = o_d_id
   AND ol_w_id = o_w_id
   AND ol_d_id = o_d_id
   AND ol_o_id = o_id
 GROUP BY o_id, o_w_id, o_d_id, c_id, c_last, o_entry_d, o_ol_cnt
HAVING sum(ol_amount) > 200
 ORDER BY amount DESC, o_entry_d;

-- name: q19
SELECT sum(ol_amount) AS revenue
  FROM order_line, item
 WHERE (ol_i_id = i_id
        AND i_data LIKE '%a'
        AND ol_quantity >= 1
        AND ol_quantity <= 10
        AND i_price BETWEEN 1 AND 400000
        AND ol_w_id IN (1, 2, 3))
    OR (ol_i_id = i_id
        AND i_data LIKE '%b'
        AND ol_quantity >= 1
        AND ol_quantity <= 10
        AND i_price BETWEEN 1 AND 400000
        AND ol_w_id IN (1, 2, 4))
    OR (ol_i_id = i_id
        AND i_data LIKE '%c'
        AND ol_quantity >= 1
        AND ol_quantity <= 10
        AND i_price BETWEEN 1 AND 400000
        AND ol_w_id IN (1, 5, 3));

-- name: q20
SELECT su_name, su_address
  FROM supplier, nation
 WHERE su_suppkey IN (SELECT mod(s_i_id * s_w_id, 10000)
                        FROM stock, order_line
                       WHERE s_i_id IN (SELECT i_id FROM item WHERE i_data LIKE 'co%')
                         AND ol_i_id = s_i_id
                         AND ol_delivery_d > TIMESTAMP '2010-05-23 12:00:00'
                       GROUP BY s_i_id, s_w_id, s_quantity
                      HAVING 2 * s_quantity > sum(ol_quantity))
   AND su_nationkey = n_nationkey
   AND n_name = 'Germany'
 ORDER BY su_name;

-- name: q21
SELECT su_name, count(*) AS numwait
  FROM supplier, order_line l1, orders, stock, nation
 WHERE ol_o_id = o_id
   AND ol_w_id = o_w_id
   AND ol_d_id = o_d_id
   AND ol_w_id = s_w_id
   AND ol_i_id = s_i_id
   AND mod(s_w_id * s_i_id, 10000) = su_suppkey
   AND l1.ol_delivery_d > o_entry_d
   AND NOT EXISTS (SELECT *
                     FROM order_line l2
                    WHERE l2.ol_o_id = l1.ol_o_id
                      AND l2.ol_w_id = l1.ol_w_id
                      AND l2.ol_d_id = l1.ol_d_id
                      AND l2.ol_delivery_d > l1.ol_delivery_d)
   AND su_nationkey = n_nationkey
   AND n_name = 'Germany'
 GROUP BY su_name
 ORDER BY numwait DESC, su_name;

-- name: q22
SELECT substr(c_state, 1, 1) AS country, count(*) AS numcust, sum(c_balance) AS totacctbal
  FROM customer
 WHERE substr(c_phone, 1, 1) IN ('1', '2', '3', '4', '5', '6', '7')
   AND c_balance > (SELECT avg(c_balance)
                      FROM customer
                     WHERE c_balance > 0.00
                       AND substr(c_phone, 1, 1) IN ('1', '2', '3', '4', '5', '6', '7'))
   AND NOT EXISTS (SELECT *
                     FROM orders
                    WHERE o_c_id = c_id
                      AND o_w_id = c_w_id
                      AND o_d_id = c_d_id)
 GROUP BY substr(c_state, 1, 1)
 ORDER BY substr(c_state, 1, 1);
