-- TPROC-C transactions as PL/SQL procedures, written for Sledge from the
-- TPC-C rules (hammerdb.md §5.4). Run as the TPROC-C user:
--   sqlplus tpcc/tpcc@//host:1521/FREEPDB1 @procedures.sql
--
-- NEWORD takes the client's order lines as three PL/SQL associative arrays
-- (item ids, supply warehouses, quantities; element i is line i) of the type
-- sledge_types.num_tab, which node-oracledb binds from JavaScript arrays in
-- thin mode.
--
-- Each writing procedure commits its own work; any error rolls the whole
-- transaction back before it is raised again, so a failed call leaves
-- nothing behind.

-- name: sledge_types
CREATE OR REPLACE PACKAGE sledge_types AS
  TYPE num_tab IS TABLE OF NUMBER INDEX BY BINARY_INTEGER;
END sledge_types;
/

-- name: neword
-- New order (TPC-C 2.4). An unknown item (the client's 1% case, item 100001
-- on the last line) rolls back everything and returns p_rolled_back = 1.
-- Stock: s_quantity -= qty when at least qty + 10 remain, else s_quantity
-- - qty + 91; s_ytd += qty; s_order_cnt += 1; s_remote_cnt += 1 for a remote
-- supply warehouse. ol_amount = qty * i_price; p_total_amount =
-- sum(ol_amount) * (1 - c_discount) * (1 + w_tax + d_tax).
CREATE OR REPLACE PROCEDURE neword (
  p_w_id          IN  INTEGER,
  p_max_w_id      IN  INTEGER,
  p_d_id          IN  INTEGER,
  p_c_id          IN  INTEGER,
  p_o_ol_cnt      IN  INTEGER,
  p_o_all_local   IN  INTEGER,
  p_ol_i_ids      IN  sledge_types.num_tab,
  p_ol_supply_ids IN  sledge_types.num_tab,
  p_ol_quantities IN  sledge_types.num_tab,
  p_rolled_back   OUT INTEGER,
  p_o_id          OUT INTEGER,
  p_total_amount  OUT NUMBER
) IS
  v_c_discount customer.c_discount%TYPE;
  v_c_last     customer.c_last%TYPE;
  v_c_credit   customer.c_credit%TYPE;
  v_w_tax      warehouse.w_tax%TYPE;
  v_d_tax      district.d_tax%TYPE;
  v_next_o_id  district.d_next_o_id%TYPE;
  v_i_price    item.i_price%TYPE;
  v_i_name     item.i_name%TYPE;
  v_i_data     item.i_data%TYPE;
  v_dist_01    stock.s_dist_01%TYPE;
  v_dist_02    stock.s_dist_02%TYPE;
  v_dist_03    stock.s_dist_03%TYPE;
  v_dist_04    stock.s_dist_04%TYPE;
  v_dist_05    stock.s_dist_05%TYPE;
  v_dist_06    stock.s_dist_06%TYPE;
  v_dist_07    stock.s_dist_07%TYPE;
  v_dist_08    stock.s_dist_08%TYPE;
  v_dist_09    stock.s_dist_09%TYPE;
  v_dist_10    stock.s_dist_10%TYPE;
  v_dist_info  stock.s_dist_01%TYPE;
  v_i_id       INTEGER;
  v_supply_id  INTEGER;
  v_quantity   INTEGER;
  v_amount     NUMBER;
  v_sum        NUMBER := 0;
  v_now        DATE := SYSDATE;
BEGIN
  p_rolled_back := 0;
  p_total_amount := 0;
  SELECT c_discount, c_last, c_credit
    INTO v_c_discount, v_c_last, v_c_credit
    FROM customer
   WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = p_c_id;
  SELECT w_tax INTO v_w_tax FROM warehouse WHERE w_id = p_w_id;
  UPDATE district
     SET d_next_o_id = d_next_o_id + 1
   WHERE d_w_id = p_w_id AND d_id = p_d_id
  RETURNING d_next_o_id, d_tax INTO v_next_o_id, v_d_tax;
  p_o_id := v_next_o_id - 1;
  INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
  VALUES (p_o_id, p_d_id, p_w_id, p_c_id, v_now, NULL, p_o_ol_cnt, p_o_all_local);
  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (p_o_id, p_d_id, p_w_id);
  FOR l IN 1 .. p_o_ol_cnt LOOP
    v_i_id := p_ol_i_ids(l);
    v_supply_id := p_ol_supply_ids(l);
    v_quantity := p_ol_quantities(l);
    BEGIN
      SELECT i_price, i_name, i_data
        INTO v_i_price, v_i_name, v_i_data
        FROM item
       WHERE i_id = v_i_id;
    EXCEPTION
      WHEN NO_DATA_FOUND THEN
        ROLLBACK;
        p_rolled_back := 1;
        p_o_id := NULL;
        RETURN;
    END;
    UPDATE stock
       SET s_quantity = CASE WHEN s_quantity >= v_quantity + 10
                             THEN s_quantity - v_quantity
                             ELSE s_quantity - v_quantity + 91 END,
           s_ytd = s_ytd + v_quantity,
           s_order_cnt = s_order_cnt + 1,
           s_remote_cnt = s_remote_cnt + CASE WHEN v_supply_id <> p_w_id THEN 1 ELSE 0 END
     WHERE s_i_id = v_i_id AND s_w_id = v_supply_id
    RETURNING s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05,
              s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10
         INTO v_dist_01, v_dist_02, v_dist_03, v_dist_04, v_dist_05,
              v_dist_06, v_dist_07, v_dist_08, v_dist_09, v_dist_10;
    v_dist_info := CASE p_d_id
      WHEN 1 THEN v_dist_01 WHEN 2 THEN v_dist_02 WHEN 3 THEN v_dist_03
      WHEN 4 THEN v_dist_04 WHEN 5 THEN v_dist_05 WHEN 6 THEN v_dist_06
      WHEN 7 THEN v_dist_07 WHEN 8 THEN v_dist_08 WHEN 9 THEN v_dist_09
      ELSE v_dist_10 END;
    v_amount := v_quantity * v_i_price;
    v_sum := v_sum + v_amount;
    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id,
                            ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
    VALUES (p_o_id, p_d_id, p_w_id, l, v_i_id, v_supply_id,
            NULL, v_quantity, v_amount, v_dist_info);
  END LOOP;
  COMMIT;
  p_total_amount := ROUND(v_sum * (1 - v_c_discount) * (1 + v_w_tax + v_d_tax), 2);
EXCEPTION
  WHEN OTHERS THEN
    ROLLBACK;
    RAISE;
END neword;
/

-- name: payment
-- Payment (TPC-C 2.5). The customer is chosen by id, or by last name: the
-- row at position ceil(n/2) of the n matches ordered by c_first. A BC
-- customer gets "c_id c_d_id c_w_id d_id w_id amount | " prepended to c_data,
-- truncated to 500 characters. HISTORY gets h_data = w_name || 4 spaces || d_name.
CREATE OR REPLACE PROCEDURE payment (
  p_w_id      IN  INTEGER,
  p_d_id      IN  INTEGER,
  p_c_w_id    IN  INTEGER,
  p_c_d_id    IN  INTEGER,
  p_c_id      IN  INTEGER,
  p_byname    IN  INTEGER,
  p_h_amount  IN  NUMBER,
  p_c_last    IN  VARCHAR2,
  p_out_c_id  OUT INTEGER,
  p_c_balance OUT NUMBER,
  p_c_credit  OUT VARCHAR2
) IS
  v_c_id   INTEGER := p_c_id;
  v_n      INTEGER;
  v_w_name warehouse.w_name%TYPE;
  v_d_name district.d_name%TYPE;
  v_now    DATE := SYSDATE;
BEGIN
  UPDATE warehouse SET w_ytd = w_ytd + p_h_amount
   WHERE w_id = p_w_id
  RETURNING w_name INTO v_w_name;
  UPDATE district SET d_ytd = d_ytd + p_h_amount
   WHERE d_w_id = p_w_id AND d_id = p_d_id
  RETURNING d_name INTO v_d_name;
  IF p_byname = 1 THEN
    SELECT COUNT(*) INTO v_n
      FROM customer
     WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_last = p_c_last;
    IF v_n = 0 THEN
      RAISE_APPLICATION_ERROR(-20001, 'payment: no customer has that last name');
    END IF;
    SELECT c_id INTO v_c_id
      FROM (SELECT c_id, ROW_NUMBER() OVER (ORDER BY c_first, c_id) AS rn
              FROM customer
             WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_last = p_c_last)
     WHERE rn = CEIL(v_n / 2);
  END IF;
  UPDATE customer
     SET c_balance = c_balance - p_h_amount,
         c_ytd_payment = c_ytd_payment + p_h_amount,
         c_payment_cnt = c_payment_cnt + 1,
         c_data = CASE WHEN c_credit = 'BC'
                       THEN SUBSTR(v_c_id || ' ' || p_c_d_id || ' ' || p_c_w_id || ' ' || p_d_id || ' ' || p_w_id || ' '
                                   || TO_CHAR(p_h_amount, 'FM99990.00') || ' | ' || c_data, 1, 500)
                       ELSE c_data END
   WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_id = v_c_id
  RETURNING c_balance, c_credit INTO p_c_balance, p_c_credit;
  INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
  VALUES (v_c_id, p_c_d_id, p_c_w_id, p_d_id, p_w_id, v_now, p_h_amount, v_w_name || '    ' || v_d_name);
  COMMIT;
  p_out_c_id := v_c_id;
EXCEPTION
  WHEN OTHERS THEN
    ROLLBACK;
    RAISE;
END payment;
/

-- name: delivery
-- Delivery (TPC-C 2.7): for each of the 10 districts, the oldest NEW_ORDER
-- row is deleted, its order gets the carrier, its lines the delivery date,
-- and the customer's balance grows by the sum of the line amounts. A
-- district with no undelivered order (or whose oldest order another session
-- delivered first) is skipped. p_delivered counts the districts done.
CREATE OR REPLACE PROCEDURE delivery (
  p_w_id         IN  INTEGER,
  p_o_carrier_id IN  INTEGER,
  p_delivered    OUT INTEGER
) IS
  v_no_o_id INTEGER;
  v_c_id    INTEGER;
  v_total   NUMBER;
  v_now     DATE := SYSDATE;
BEGIN
  p_delivered := 0;
  FOR d IN 1 .. 10 LOOP
    SELECT MIN(no_o_id) INTO v_no_o_id
      FROM new_order
     WHERE no_w_id = p_w_id AND no_d_id = d;
    IF v_no_o_id IS NOT NULL THEN
      DELETE FROM new_order
       WHERE no_w_id = p_w_id AND no_d_id = d AND no_o_id = v_no_o_id;
      IF SQL%ROWCOUNT > 0 THEN
        UPDATE orders SET o_carrier_id = p_o_carrier_id
         WHERE o_w_id = p_w_id AND o_d_id = d AND o_id = v_no_o_id
        RETURNING o_c_id INTO v_c_id;
        UPDATE order_line SET ol_delivery_d = v_now
         WHERE ol_w_id = p_w_id AND ol_d_id = d AND ol_o_id = v_no_o_id;
        SELECT NVL(SUM(ol_amount), 0) INTO v_total
          FROM order_line
         WHERE ol_w_id = p_w_id AND ol_d_id = d AND ol_o_id = v_no_o_id;
        UPDATE customer
           SET c_balance = c_balance + v_total,
               c_delivery_cnt = c_delivery_cnt + 1
         WHERE c_w_id = p_w_id AND c_d_id = d AND c_id = v_c_id;
        p_delivered := p_delivered + 1;
      END IF;
    END IF;
  END LOOP;
  COMMIT;
EXCEPTION
  WHEN OTHERS THEN
    ROLLBACK;
    RAISE;
END delivery;
/

-- name: slev
-- Stock level (TPC-C 2.8): distinct items of the district's last 20 orders
-- whose home-warehouse stock is below the threshold.
CREATE OR REPLACE PROCEDURE slev (
  p_w_id        IN  INTEGER,
  p_d_id        IN  INTEGER,
  p_threshold   IN  INTEGER,
  p_stock_count OUT INTEGER
) IS
  v_next_o_id INTEGER;
BEGIN
  SELECT d_next_o_id INTO v_next_o_id
    FROM district
   WHERE d_w_id = p_w_id AND d_id = p_d_id;
  SELECT COUNT(DISTINCT s.s_i_id) INTO p_stock_count
    FROM order_line ol, stock s
   WHERE ol.ol_w_id = p_w_id AND ol.ol_d_id = p_d_id
     AND ol.ol_o_id >= v_next_o_id - 20 AND ol.ol_o_id < v_next_o_id
     AND s.s_w_id = p_w_id AND s.s_i_id = ol.ol_i_id
     AND s.s_quantity < p_threshold;
END slev;
/

-- name: ostat
-- Order status (TPC-C 2.6): the customer (by id, or by last name at
-- position ceil(n/2) ordered by c_first), the customer's latest order, and
-- that order's lines (fetched into collections; p_line_count says how many).
CREATE OR REPLACE PROCEDURE ostat (
  p_w_id       IN  INTEGER,
  p_d_id       IN  INTEGER,
  p_c_id       IN  INTEGER,
  p_byname     IN  INTEGER,
  p_c_last     IN  VARCHAR2,
  p_out_c_id   OUT INTEGER,
  p_o_id       OUT INTEGER,
  p_line_count OUT INTEGER
) IS
  TYPE num_list IS TABLE OF NUMBER;
  TYPE date_list IS TABLE OF DATE;
  v_c_id       INTEGER := p_c_id;
  v_n          INTEGER;
  v_c_balance  customer.c_balance%TYPE;
  v_c_first    customer.c_first%TYPE;
  v_c_middle   customer.c_middle%TYPE;
  v_c_last     customer.c_last%TYPE;
  v_entry_d    orders.o_entry_d%TYPE;
  v_carrier_id orders.o_carrier_id%TYPE;
  v_i_ids      num_list;
  v_supply_ids num_list;
  v_quantities num_list;
  v_amounts    num_list;
  v_delivery   date_list;
BEGIN
  IF p_byname = 1 THEN
    SELECT COUNT(*) INTO v_n
      FROM customer
     WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_last = p_c_last;
    IF v_n = 0 THEN
      RAISE_APPLICATION_ERROR(-20002, 'ostat: no customer has that last name');
    END IF;
    SELECT c_id INTO v_c_id
      FROM (SELECT c_id, ROW_NUMBER() OVER (ORDER BY c_first, c_id) AS rn
              FROM customer
             WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_last = p_c_last)
     WHERE rn = CEIL(v_n / 2);
  END IF;
  SELECT c_balance, c_first, c_middle, c_last
    INTO v_c_balance, v_c_first, v_c_middle, v_c_last
    FROM customer
   WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = v_c_id;
  BEGIN
    SELECT o_id, o_entry_d, o_carrier_id
      INTO p_o_id, v_entry_d, v_carrier_id
      FROM (SELECT o_id, o_entry_d, o_carrier_id
              FROM orders
             WHERE o_w_id = p_w_id AND o_d_id = p_d_id AND o_c_id = v_c_id
             ORDER BY o_id DESC)
     WHERE ROWNUM = 1;
  EXCEPTION
    WHEN NO_DATA_FOUND THEN
      p_o_id := NULL;
  END;
  SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d
    BULK COLLECT INTO v_i_ids, v_supply_ids, v_quantities, v_amounts, v_delivery
    FROM order_line
   WHERE ol_w_id = p_w_id AND ol_d_id = p_d_id AND ol_o_id = p_o_id;
  p_line_count := v_i_ids.COUNT;
  p_out_c_id := v_c_id;
END ostat;
/
