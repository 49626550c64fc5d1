-- TPROC-C payment (TPC-C 2.5), run by the SQLite driver as a sequence of
-- prepared statements inside BEGIN IMMEDIATE ... COMMIT. Money columns are
-- rounded to the cent on every update (see tables.sql).

-- name: pay_warehouse
UPDATE warehouse
SET w_ytd = ROUND(w_ytd + :amount, 2)
WHERE w_id = :w_id
RETURNING w_name, w_street_1, w_street_2, w_city, w_state, w_zip;

-- name: pay_district
UPDATE district
SET d_ytd = ROUND(d_ytd + :amount, 2)
WHERE d_w_id = :w_id AND d_id = :d_id
RETURNING d_name, d_street_1, d_street_2, d_city, d_state, d_zip;

-- Customers of one last name in c_first order; the driver takes the row at
-- position ceil(n/2) (TPC-C 2.5.2.2).
-- name: pay_customer_ids_by_name
SELECT c_id
FROM customer
WHERE c_w_id = :c_w_id AND c_d_id = :c_d_id AND c_last = :c_last
ORDER BY c_first;

-- Balance, year-to-date and count; for bad credit (BC) also prepend
-- "c_id c_d_id c_w_id d_id w_id amount | " to c_data, kept to 500 characters.
-- (printf, not ||: bound numbers arrive as REAL and would print as "1.0".)
-- name: pay_customer
UPDATE customer
SET c_balance = ROUND(c_balance - :amount, 2),
    c_ytd_payment = ROUND(c_ytd_payment + :amount, 2),
    c_payment_cnt = c_payment_cnt + 1,
    c_data = CASE WHEN c_credit = 'BC'
                  THEN substr(printf('%d %d %d %d %d %.2f | ', c_id, c_d_id, c_w_id, :d_id, :w_id, :amount)
                              || c_data, 1, 500)
                  ELSE c_data END
WHERE c_w_id = :c_w_id AND c_d_id = :c_d_id AND c_id = :c_id
RETURNING c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip,
          c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance;

-- name: pay_history
INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
VALUES (:c_id, :c_d_id, :c_w_id, :d_id, :w_id, datetime('now'), :amount, :w_name || '    ' || :d_name);
