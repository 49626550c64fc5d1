-- TPROC-C transactions as Db2 SQL PL procedures, written for Sledge from
-- the TPC-C rules (hammerdb.md §5.4). Run as the TPROC-C user:
--   db2 -td@ -vf procedures.sql
--
-- NEWORD takes the client's order lines as three fixed-width digit strings
-- (ibm_db cannot bind arrays to procedure parameters): item ids and supply
-- warehouses 6 digits each, quantities 2 digits, line i at offset
-- (i-1)*width. "000012000345" is items 12 and 345.
--
-- Each writing procedure commits its own work; any SQL error rolls the whole
-- transaction back before it is raised again (EXIT handler), so a failed
-- call leaves nothing behind whatever the client's autocommit setting.

-- name: neword
-- New order (TPC-C 2.4). An unknown item (the client's 1% case, item 100001
-- on the last line) rolls back everything and returns p_rolled_back = 1.
-- Stock: s_quantity -= qty when at least qty + 10 remain, else s_quantity
-- - qty + 91; s_ytd += qty; s_order_cnt += 1; s_remote_cnt += 1 for a remote
-- supply warehouse. ol_amount = qty * i_price; p_total_amount =
-- sum(ol_amount) * (1 - c_discount) * (1 + w_tax + d_tax), as text.
CREATE OR REPLACE PROCEDURE neword (
  IN  p_w_id          INTEGER,
  IN  p_max_w_id      INTEGER,
  IN  p_d_id          INTEGER,
  IN  p_c_id          INTEGER,
  IN  p_o_ol_cnt      INTEGER,
  IN  p_o_all_local   INTEGER,
  IN  p_ol_i_ids      VARCHAR(90),
  IN  p_ol_supply_ids VARCHAR(90),
  IN  p_ol_quantities VARCHAR(30),
  OUT p_rolled_back   INTEGER,
  OUT p_o_id          INTEGER,
  OUT p_total_amount  VARCHAR(32)
)
LANGUAGE SQL
MODIFIES SQL DATA
BEGIN
  DECLARE v_c_discount DECIMAL(4,4);
  DECLARE v_c_last     VARCHAR(16);
  DECLARE v_c_credit   CHAR(2);
  DECLARE v_w_tax      DECIMAL(4,4);
  DECLARE v_d_tax      DECIMAL(4,4);
  DECLARE v_i_price    DECIMAL(5,2);
  DECLARE v_i_name     VARCHAR(24);
  DECLARE v_i_data     VARCHAR(50);
  DECLARE v_dist_info  CHAR(24);
  DECLARE v_i_id       INTEGER;
  DECLARE v_supply_id  INTEGER;
  DECLARE v_quantity   INTEGER;
  DECLARE v_amount     DECIMAL(6,2);
  DECLARE v_sum        DECIMAL(12,2) DEFAULT 0;
  DECLARE v_line       INTEGER DEFAULT 1;
  DECLARE v_now        TIMESTAMP;
  DECLARE EXIT HANDLER FOR SQLEXCEPTION
  BEGIN
    ROLLBACK;
    RESIGNAL;
  END;
  SET v_now = CURRENT TIMESTAMP;
  SET p_rolled_back = 0;
  SET p_total_amount = '0.00';
  SELECT c_discount, c_last, c_credit
    INTO v_c_discount, v_c_last, v_c_credit
    FROM customer
   WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = p_c_id;
  SELECT w_tax INTO v_w_tax FROM warehouse WHERE w_id = p_w_id;
  UPDATE district SET d_next_o_id = d_next_o_id + 1
   WHERE d_w_id = p_w_id AND d_id = p_d_id;
  SELECT d_next_o_id - 1, d_tax INTO p_o_id, v_d_tax
    FROM district
   WHERE d_w_id = p_w_id AND d_id = p_d_id;
  INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
  VALUES (p_o_id, p_d_id, p_w_id, p_c_id, v_now, NULL, p_o_ol_cnt, p_o_all_local);
  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (p_o_id, p_d_id, p_w_id);
  WHILE v_line <= p_o_ol_cnt DO
    SET v_i_id = INTEGER(SUBSTR(p_ol_i_ids, (v_line - 1) * 6 + 1, 6));
    SET v_supply_id = INTEGER(SUBSTR(p_ol_supply_ids, (v_line - 1) * 6 + 1, 6));
    SET v_quantity = INTEGER(SUBSTR(p_ol_quantities, (v_line - 1) * 2 + 1, 2));
    SET v_i_price = NULL;
    SELECT i_price, i_name, i_data
      INTO v_i_price, v_i_name, v_i_data
      FROM item
     WHERE i_id = v_i_id;
    IF v_i_price IS NULL THEN
      ROLLBACK;
      SET p_rolled_back = 1;
      SET p_o_id = NULL;
      RETURN 0;
    END IF;
    UPDATE stock
       SET s_quantity = CASE WHEN s_quantity >= v_quantity + 10
                             THEN s_quantity - v_quantity
                             ELSE s_quantity - v_quantity + 91 END,
           s_ytd = s_ytd + v_quantity,
           s_order_cnt = s_order_cnt + 1,
           s_remote_cnt = s_remote_cnt + CASE WHEN v_supply_id <> p_w_id THEN 1 ELSE 0 END
     WHERE s_i_id = v_i_id AND s_w_id = v_supply_id;
    SELECT CASE p_d_id
             WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03
             WHEN 4 THEN s_dist_04 WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06
             WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08 WHEN 9 THEN s_dist_09
             ELSE s_dist_10 END
      INTO v_dist_info
      FROM stock
     WHERE s_i_id = v_i_id AND s_w_id = v_supply_id;
    SET v_amount = v_quantity * v_i_price;
    SET v_sum = v_sum + v_amount;
    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id,
                            ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
    VALUES (p_o_id, p_d_id, p_w_id, v_line, v_i_id, v_supply_id,
            NULL, v_quantity, v_amount, v_dist_info);
    SET v_line = v_line + 1;
  END WHILE;
  COMMIT;
  SET p_total_amount = CAST(DECIMAL(v_sum * (1 - v_c_discount) * (1 + v_w_tax + v_d_tax), 12, 2) AS VARCHAR(32));
END
@

-- name: payment
-- Payment (TPC-C 2.5). The customer is chosen by id, or by last name: the
-- row at position ceil(n/2) of the n matches ordered by c_first. A BC
-- customer gets "c_id c_d_id c_w_id d_id w_id amount | " prepended to c_data,
-- truncated to 500 characters. HISTORY gets h_data = w_name || 4 spaces || d_name.
-- p_c_balance is returned as text.
CREATE OR REPLACE PROCEDURE payment (
  IN  p_w_id      INTEGER,
  IN  p_d_id      INTEGER,
  IN  p_c_w_id    INTEGER,
  IN  p_c_d_id    INTEGER,
  IN  p_c_id      INTEGER,
  IN  p_byname    INTEGER,
  IN  p_h_amount  DECIMAL(6,2),
  IN  p_c_last    VARCHAR(16),
  OUT p_out_c_id  INTEGER,
  OUT p_c_balance VARCHAR(32),
  OUT p_c_credit  CHAR(2)
)
LANGUAGE SQL
MODIFIES SQL DATA
BEGIN
  DECLARE v_c_id    INTEGER;
  DECLARE v_n       INTEGER;
  DECLARE v_w_name  VARCHAR(10);
  DECLARE v_d_name  VARCHAR(10);
  DECLARE v_balance DECIMAL(12,2);
  DECLARE v_prefix  VARCHAR(100);
  DECLARE v_now     TIMESTAMP;
  DECLARE EXIT HANDLER FOR SQLEXCEPTION
  BEGIN
    ROLLBACK;
    RESIGNAL;
  END;
  SET v_now = CURRENT TIMESTAMP;
  SET v_c_id = p_c_id;
  UPDATE warehouse SET w_ytd = w_ytd + p_h_amount WHERE w_id = p_w_id;
  SELECT w_name INTO v_w_name FROM warehouse WHERE w_id = p_w_id;
  UPDATE district SET d_ytd = d_ytd + p_h_amount WHERE d_w_id = p_w_id AND d_id = p_d_id;
  SELECT d_name INTO v_d_name FROM district WHERE d_w_id = p_w_id AND d_id = p_d_id;
  IF p_byname = 1 THEN
    SELECT COUNT(*) INTO v_n
      FROM customer
     WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_last = p_c_last;
    IF v_n = 0 THEN
      SIGNAL SQLSTATE '75001' SET MESSAGE_TEXT = 'payment: no customer has that last name';
    END IF;
    SELECT c_id INTO v_c_id
      FROM (SELECT c_id, ROW_NUMBER() OVER (ORDER BY c_first, c_id) AS rn
              FROM customer
             WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_last = p_c_last) AS t
     WHERE t.rn = (v_n + 1) / 2;
  END IF;
  SET v_prefix = CAST(v_c_id AS VARCHAR(11)) || ' ' || CAST(p_c_d_id AS VARCHAR(11)) || ' '
              || CAST(p_c_w_id AS VARCHAR(11)) || ' ' || CAST(p_d_id AS VARCHAR(11)) || ' '
              || CAST(p_w_id AS VARCHAR(11)) || ' ' || CAST(p_h_amount AS VARCHAR(12)) || ' | ';
  UPDATE customer
     SET c_balance = c_balance - p_h_amount,
         c_ytd_payment = c_ytd_payment + p_h_amount,
         c_payment_cnt = c_payment_cnt + 1,
         c_data = CASE WHEN c_credit <> 'BC' THEN c_data
                       WHEN LENGTH(v_prefix || c_data) > 500 THEN SUBSTR(v_prefix || c_data, 1, 500)
                       ELSE v_prefix || c_data END
   WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_id = v_c_id;
  SELECT c_balance, c_credit INTO v_balance, p_c_credit
    FROM customer
   WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_id = v_c_id;
  INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
  VALUES (v_c_id, p_c_d_id, p_c_w_id, p_d_id, p_w_id, v_now, p_h_amount, v_w_name || '    ' || v_d_name);
  COMMIT;
  SET p_out_c_id = v_c_id;
  SET p_c_balance = CAST(v_balance AS VARCHAR(32));
END
@

-- name: delivery
-- Delivery (TPC-C 2.7): for each of the 10 districts, the oldest NEW_ORDER
-- row is deleted, its order gets the carrier, its lines the delivery date,
-- and the customer's balance grows by the sum of the line amounts. A
-- district with no undelivered order (or whose oldest order another session
-- delivered first) is skipped. p_delivered counts the districts done.
CREATE OR REPLACE PROCEDURE delivery (
  IN  p_w_id         INTEGER,
  IN  p_o_carrier_id INTEGER,
  OUT p_delivered    INTEGER
)
LANGUAGE SQL
MODIFIES SQL DATA
BEGIN
  DECLARE v_d       INTEGER DEFAULT 1;
  DECLARE v_no_o_id INTEGER;
  DECLARE v_c_id    INTEGER;
  DECLARE v_total   DECIMAL(12,2);
  DECLARE v_rows    INTEGER;
  DECLARE v_now     TIMESTAMP;
  DECLARE EXIT HANDLER FOR SQLEXCEPTION
  BEGIN
    ROLLBACK;
    RESIGNAL;
  END;
  SET v_now = CURRENT TIMESTAMP;
  SET p_delivered = 0;
  WHILE v_d <= 10 DO
    SET v_no_o_id = (SELECT MIN(no_o_id) FROM new_order WHERE no_w_id = p_w_id AND no_d_id = v_d);
    IF v_no_o_id IS NOT NULL THEN
      DELETE FROM new_order
       WHERE no_w_id = p_w_id AND no_d_id = v_d AND no_o_id = v_no_o_id;
      GET DIAGNOSTICS v_rows = ROW_COUNT;
      IF v_rows > 0 THEN
        UPDATE orders SET o_carrier_id = p_o_carrier_id
         WHERE o_w_id = p_w_id AND o_d_id = v_d AND o_id = v_no_o_id;
        SET v_c_id = (SELECT o_c_id FROM orders WHERE o_w_id = p_w_id AND o_d_id = v_d AND o_id = v_no_o_id);
        UPDATE order_line SET ol_delivery_d = v_now
         WHERE ol_w_id = p_w_id AND ol_d_id = v_d AND ol_o_id = v_no_o_id;
        SET v_total = (SELECT COALESCE(SUM(ol_amount), 0) FROM order_line
                        WHERE ol_w_id = p_w_id AND ol_d_id = v_d AND ol_o_id = v_no_o_id);
        UPDATE customer
           SET c_balance = c_balance + v_total,
               c_delivery_cnt = c_delivery_cnt + 1
         WHERE c_w_id = p_w_id AND c_d_id = v_d AND c_id = v_c_id;
        SET p_delivered = p_delivered + 1;
      END IF;
    END IF;
    SET v_d = v_d + 1;
  END WHILE;
  COMMIT;
END
@

-- name: slev
-- Stock level (TPC-C 2.8): distinct items of the district's last 20 orders
-- whose home-warehouse stock is below the threshold.
CREATE OR REPLACE PROCEDURE slev (
  IN  p_w_id        INTEGER,
  IN  p_d_id        INTEGER,
  IN  p_threshold   INTEGER,
  OUT p_stock_count INTEGER
)
LANGUAGE SQL
READS SQL DATA
BEGIN
  DECLARE v_next_o_id INTEGER;
  SET v_next_o_id = (SELECT d_next_o_id FROM district WHERE d_w_id = p_w_id AND d_id = p_d_id);
  SET p_stock_count = (SELECT COUNT(DISTINCT s.s_i_id)
                         FROM order_line ol
                         JOIN stock s ON s.s_w_id = p_w_id AND s.s_i_id = ol.ol_i_id
                        WHERE ol.ol_w_id = p_w_id AND ol.ol_d_id = p_d_id
                          AND ol.ol_o_id >= v_next_o_id - 20 AND ol.ol_o_id < v_next_o_id
                          AND s.s_quantity < p_threshold);
END
@

-- name: ostat
-- Order status (TPC-C 2.6): the customer (by id, or by last name at
-- position ceil(n/2) ordered by c_first), the customer's latest order, and
-- that order's lines (read with a cursor; p_line_count says how many).
CREATE OR REPLACE PROCEDURE ostat (
  IN  p_w_id       INTEGER,
  IN  p_d_id       INTEGER,
  IN  p_c_id       INTEGER,
  IN  p_byname     INTEGER,
  IN  p_c_last     VARCHAR(16),
  OUT p_out_c_id   INTEGER,
  OUT p_o_id       INTEGER,
  OUT p_line_count INTEGER
)
LANGUAGE SQL
READS SQL DATA
BEGIN
  DECLARE v_c_id       INTEGER;
  DECLARE v_n          INTEGER;
  DECLARE v_c_balance  DECIMAL(12,2);
  DECLARE v_c_first    VARCHAR(16);
  DECLARE v_c_middle   CHAR(2);
  DECLARE v_c_last     VARCHAR(16);
  DECLARE v_entry_d    TIMESTAMP;
  DECLARE v_carrier_id SMALLINT;
  DECLARE v_lines      INTEGER DEFAULT 0;
  SET v_c_id = p_c_id;
  IF p_byname = 1 THEN
    SELECT COUNT(*) INTO v_n
      FROM customer
     WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_last = p_c_last;
    IF v_n = 0 THEN
      SIGNAL SQLSTATE '75002' SET MESSAGE_TEXT = 'ostat: no customer has that last name';
    END IF;
    SELECT c_id INTO v_c_id
      FROM (SELECT c_id, ROW_NUMBER() OVER (ORDER BY c_first, c_id) AS rn
              FROM customer
             WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_last = p_c_last) AS t
     WHERE t.rn = (v_n + 1) / 2;
  END IF;
  SELECT c_balance, c_first, c_middle, c_last
    INTO v_c_balance, v_c_first, v_c_middle, v_c_last
    FROM customer
   WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = v_c_id;
  SET p_o_id = (SELECT MAX(o_id) FROM orders WHERE o_w_id = p_w_id AND o_d_id = p_d_id AND o_c_id = v_c_id);
  SELECT o_entry_d, o_carrier_id INTO v_entry_d, v_carrier_id
    FROM orders
   WHERE o_w_id = p_w_id AND o_d_id = p_d_id AND o_id = p_o_id;
  FOR l AS
    SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d
      FROM order_line
     WHERE ol_w_id = p_w_id AND ol_d_id = p_d_id AND ol_o_id = p_o_id
  DO
    SET v_lines = v_lines + 1;
  END FOR;
  SET p_line_count = v_lines;
  SET p_out_c_id = v_c_id;
END
@
