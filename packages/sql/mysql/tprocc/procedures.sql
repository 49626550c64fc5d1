-- TPROC-C transactions as stored procedures (MySQL 8, MariaDB 10.6+).
--
-- Runnable with the mysql/mariadb client as is: `mysql tpcc < procedures.sql`.
-- The driver splits the file at the `-- split` lines, drops the DELIMITER
-- lines and the trailing `$$`, and sends each statement on its own.
--
-- Transactions: every procedure is exactly one transaction. It starts it
-- (START TRANSACTION, READ ONLY for the two read-only ones) and ends it
-- with one COMMIT, or one ROLLBACK for the new-order rollback case, so
-- Com_commit + Com_rollback (the TPM counter) grows by one per call, as
-- with HammerDB. Doing it inside the procedure keeps a transaction at one
-- round trip. Any SQL error (deadlock, lock wait timeout, ...) rolls the
-- transaction back in the EXIT handler and is re-raised unchanged, so the
-- client sees the original error number and no half-done transaction is
-- left open on the session (InnoDB rolls back only the failed statement
-- on a lock wait timeout).
--
-- Results: each procedure ends with one small result row (after COMMIT)
-- carrying its outputs; NEWORD's `rolled_back` column tells the client
-- whether the order was rolled back. OSTAT also returns the order's lines.

DELIMITER $$

-- split
DROP PROCEDURE IF EXISTS neword $$
-- split
-- New order. The client chooses the order lines: p_items, p_supply and
-- p_qty are comma-separated lists of p_ol_cnt item ids, supplying
-- warehouses and quantities. An unknown item (100001, the 1% case) rolls
-- the whole order back.
CREATE PROCEDURE neword (
  IN p_w_id INT,
  IN p_d_id TINYINT,
  IN p_c_id INT,
  IN p_ol_cnt TINYINT,
  IN p_all_local TINYINT,
  IN p_items VARCHAR(255),
  IN p_supply VARCHAR(255),
  IN p_qty VARCHAR(255)
)
body: BEGIN
  DECLARE v_c_discount DECIMAL(4,4);
  DECLARE v_c_last VARCHAR(16);
  DECLARE v_c_credit CHAR(2);
  DECLARE v_w_tax DECIMAL(4,4);
  DECLARE v_d_tax DECIMAL(4,4);
  DECLARE v_o_id INT;
  DECLARE v_n TINYINT DEFAULT 0;
  DECLARE v_i_id INT;
  DECLARE v_supply INT;
  DECLARE v_qty SMALLINT;
  DECLARE v_price DECIMAL(5,2);
  DECLARE v_dist CHAR(24);
  DECLARE v_amount DECIMAL(6,2);
  DECLARE v_total DECIMAL(12,2) DEFAULT 0;
  DECLARE v_missing TINYINT DEFAULT 0;
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_missing = 1;
  DECLARE EXIT HANDLER FOR SQLEXCEPTION
  BEGIN
    ROLLBACK;
    RESIGNAL;
  END;

  START TRANSACTION;
  SELECT c_discount, c_last, c_credit INTO v_c_discount, v_c_last, v_c_credit
    FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = p_c_id;
  SELECT w_tax INTO v_w_tax FROM warehouse WHERE w_id = p_w_id;
  -- Take the district row lock first, then read our own new value.
  UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = p_w_id AND d_id = p_d_id;
  SELECT d_next_o_id - 1, d_tax INTO v_o_id, v_d_tax FROM district WHERE d_w_id = p_w_id AND d_id = p_d_id;
  IF v_missing = 1 THEN
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'neword: customer, warehouse or district not found';
  END IF;
  INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
    VALUES (v_o_id, p_d_id, p_w_id, p_c_id, NOW(), NULL, p_ol_cnt, p_all_local);
  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (v_o_id, p_d_id, p_w_id);

  WHILE v_n < p_ol_cnt DO
    SET v_n = v_n + 1;
    SET v_i_id = CAST(SUBSTRING_INDEX(SUBSTRING_INDEX(p_items, ',', v_n), ',', -1) AS SIGNED);
    SET v_supply = CAST(SUBSTRING_INDEX(SUBSTRING_INDEX(p_supply, ',', v_n), ',', -1) AS SIGNED);
    SET v_qty = CAST(SUBSTRING_INDEX(SUBSTRING_INDEX(p_qty, ',', v_n), ',', -1) AS SIGNED);
    SELECT i_price INTO v_price FROM item WHERE i_id = v_i_id;
    IF v_missing = 1 THEN
      -- Unused item number: the specified 1% rollback of the whole order.
      ROLLBACK;
      SELECT 1 AS rolled_back, v_o_id AS o_id, 0 AS total;
      LEAVE body;
    END IF;
    -- Stock: take qty, restock by 91 when fewer than 10 would remain.
    UPDATE stock
       SET s_quantity = IF(s_quantity >= v_qty + 10, s_quantity - v_qty, s_quantity - v_qty + 91),
           s_ytd = s_ytd + v_qty,
           s_order_cnt = s_order_cnt + 1,
           s_remote_cnt = s_remote_cnt + IF(v_supply <> p_w_id, 1, 0)
     WHERE s_w_id = v_supply AND s_i_id = v_i_id;
    SELECT ELT(p_d_id, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05,
                       s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10)
      INTO v_dist FROM stock WHERE s_w_id = v_supply AND s_i_id = v_i_id;
    SET v_amount = ROUND(v_qty * v_price * (1 + v_w_tax + v_d_tax) * (1 - v_c_discount), 2);
    SET v_total = v_total + v_amount;
    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id,
                            ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
      VALUES (v_o_id, p_d_id, p_w_id, v_n, v_i_id, v_supply, NULL, v_qty, v_amount, v_dist);
  END WHILE;
  COMMIT;
  SELECT 0 AS rolled_back, v_o_id AS o_id, v_total AS total;
END $$

-- split
DROP PROCEDURE IF EXISTS payment $$
-- split
-- Payment by customer id, or by last name (p_byname = 1): the customer at
-- position ceil(n/2) of the n namesakes ordered by c_first.
CREATE PROCEDURE payment (
  IN p_w_id INT,
  IN p_d_id TINYINT,
  IN p_c_w_id INT,
  IN p_c_d_id TINYINT,
  IN p_c_id INT,
  IN p_byname TINYINT,
  IN p_c_last VARCHAR(16),
  IN p_amount DECIMAL(6,2)
)
BEGIN
  DECLARE v_w_name VARCHAR(10);
  DECLARE v_d_name VARCHAR(10);
  DECLARE v_c_id INT DEFAULT p_c_id;
  DECLARE v_n INT;
  DECLARE v_c_first VARCHAR(16);
  DECLARE v_c_last VARCHAR(16);
  DECLARE v_c_credit CHAR(2);
  DECLARE v_c_balance DECIMAL(12,2);
  DECLARE EXIT HANDLER FOR SQLEXCEPTION
  BEGIN
    ROLLBACK;
    RESIGNAL;
  END;

  START TRANSACTION;
  UPDATE warehouse SET w_ytd = w_ytd + p_amount WHERE w_id = p_w_id;
  SELECT w_name INTO v_w_name FROM warehouse WHERE w_id = p_w_id;
  UPDATE district SET d_ytd = d_ytd + p_amount WHERE d_w_id = p_w_id AND d_id = p_d_id;
  SELECT d_name INTO v_d_name FROM district WHERE d_w_id = p_w_id AND d_id = p_d_id;
  IF p_byname = 1 THEN
    SELECT COUNT(*) INTO v_n FROM customer
     WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_last = p_c_last;
    IF v_n = 0 THEN
      SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'payment: no customer with that last name';
    END IF;
    SET v_n = CEIL(v_n / 2) - 1;
    SELECT c_id INTO v_c_id FROM customer
     WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_last = p_c_last
     ORDER BY c_first LIMIT v_n, 1;
  END IF;
  -- Bad credit: prepend "c_id c_d_id c_w_id d_id w_id amount | " to c_data, keep 500 characters.
  UPDATE customer
     SET c_balance = c_balance - p_amount,
         c_ytd_payment = c_ytd_payment + p_amount,
         c_payment_cnt = c_payment_cnt + 1,
         c_data = IF(c_credit = 'BC',
                     LEFT(CONCAT(v_c_id, ' ', p_c_d_id, ' ', p_c_w_id, ' ', p_d_id, ' ', p_w_id, ' ',
                                 p_amount, ' | ', c_data), 500),
                     c_data)
   WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_id = v_c_id;
  IF ROW_COUNT() = 0 THEN
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'payment: customer not found';
  END IF;
  SELECT c_first, c_last, c_credit, c_balance INTO v_c_first, v_c_last, v_c_credit, v_c_balance
    FROM customer WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_id = v_c_id;
  INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
    VALUES (v_c_id, p_c_d_id, p_c_w_id, p_d_id, p_w_id, NOW(), p_amount, CONCAT(v_w_name, '    ', v_d_name));
  COMMIT;
  SELECT v_c_id AS c_id, v_c_first AS c_first, v_c_last AS c_last, v_c_credit AS c_credit, v_c_balance AS c_balance;
END $$

-- split
DROP PROCEDURE IF EXISTS delivery $$
-- split
-- Delivery: for each of the 10 districts, the oldest undelivered order
-- (skipped when the district has none).
CREATE PROCEDURE delivery (
  IN p_w_id INT,
  IN p_carrier_id TINYINT
)
BEGIN
  DECLARE v_d TINYINT DEFAULT 0;
  DECLARE v_o_id INT;
  DECLARE v_c_id INT;
  DECLARE v_amount DECIMAL(12,2);
  DECLARE v_delivered TINYINT DEFAULT 0;
  DECLARE v_none TINYINT DEFAULT 0;
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_none = 1;
  DECLARE EXIT HANDLER FOR SQLEXCEPTION
  BEGIN
    ROLLBACK;
    RESIGNAL;
  END;

  START TRANSACTION;
  WHILE v_d < 10 DO
    SET v_d = v_d + 1, v_none = 0;
    SELECT no_o_id INTO v_o_id FROM new_order
     WHERE no_w_id = p_w_id AND no_d_id = v_d
     ORDER BY no_o_id LIMIT 1 FOR UPDATE;
    IF v_none = 0 THEN
      DELETE FROM new_order WHERE no_w_id = p_w_id AND no_d_id = v_d AND no_o_id = v_o_id;
      UPDATE orders SET o_carrier_id = p_carrier_id WHERE o_w_id = p_w_id AND o_d_id = v_d AND o_id = v_o_id;
      SELECT o_c_id INTO v_c_id FROM orders WHERE o_w_id = p_w_id AND o_d_id = v_d AND o_id = v_o_id;
      UPDATE order_line SET ol_delivery_d = NOW() WHERE ol_w_id = p_w_id AND ol_d_id = v_d AND ol_o_id = v_o_id;
      SELECT COALESCE(SUM(ol_amount), 0) INTO v_amount FROM order_line
       WHERE ol_w_id = p_w_id AND ol_d_id = v_d AND ol_o_id = v_o_id;
      UPDATE customer SET c_balance = c_balance + v_amount, c_delivery_cnt = c_delivery_cnt + 1
       WHERE c_w_id = p_w_id AND c_d_id = v_d AND c_id = v_c_id;
      SET v_delivered = v_delivered + 1;
    END IF;
  END WHILE;
  COMMIT;
  SELECT v_delivered AS delivered;
END $$

-- split
DROP PROCEDURE IF EXISTS slev $$
-- split
-- Stock level: distinct items of the district's last 20 orders whose stock
-- is below the threshold.
CREATE PROCEDURE slev (
  IN p_w_id INT,
  IN p_d_id TINYINT,
  IN p_threshold SMALLINT
)
BEGIN
  DECLARE v_next_o_id INT;
  DECLARE v_count INT;
  DECLARE EXIT HANDLER FOR SQLEXCEPTION
  BEGIN
    ROLLBACK;
    RESIGNAL;
  END;

  START TRANSACTION READ ONLY;
  SELECT d_next_o_id INTO v_next_o_id FROM district WHERE d_w_id = p_w_id AND d_id = p_d_id;
  SELECT COUNT(DISTINCT s_i_id) INTO v_count
    FROM order_line
    JOIN stock ON s_w_id = p_w_id AND s_i_id = ol_i_id
   WHERE ol_w_id = p_w_id AND ol_d_id = p_d_id
     AND ol_o_id >= v_next_o_id - 20 AND ol_o_id < v_next_o_id
     AND s_quantity < p_threshold;
  COMMIT;
  SELECT v_count AS stock_count;
END $$

-- split
DROP PROCEDURE IF EXISTS ostat $$
-- split
-- Order status: the customer (by id, or the middle namesake by c_first),
-- the customer's latest order and its lines.
CREATE PROCEDURE ostat (
  IN p_w_id INT,
  IN p_d_id TINYINT,
  IN p_c_id INT,
  IN p_byname TINYINT,
  IN p_c_last VARCHAR(16)
)
BEGIN
  DECLARE v_c_id INT DEFAULT p_c_id;
  DECLARE v_n INT;
  DECLARE v_c_balance DECIMAL(12,2);
  DECLARE v_c_first VARCHAR(16);
  DECLARE v_c_middle CHAR(2);
  DECLARE v_c_last VARCHAR(16);
  DECLARE v_o_id INT;
  DECLARE v_carrier_id TINYINT;
  DECLARE v_entry_d DATETIME;
  DECLARE v_none TINYINT DEFAULT 0;
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_none = 1;
  DECLARE EXIT HANDLER FOR SQLEXCEPTION
  BEGIN
    ROLLBACK;
    RESIGNAL;
  END;

  START TRANSACTION READ ONLY;
  IF p_byname = 1 THEN
    SELECT COUNT(*) INTO v_n FROM customer
     WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_last = p_c_last;
    IF v_n = 0 THEN
      SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'ostat: no customer with that last name';
    END IF;
    SET v_n = CEIL(v_n / 2) - 1;
    SELECT c_id INTO v_c_id FROM customer
     WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_last = p_c_last
     ORDER BY c_first LIMIT v_n, 1;
  END IF;
  SELECT c_balance, c_first, c_middle, c_last INTO v_c_balance, v_c_first, v_c_middle, v_c_last
    FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = v_c_id;
  SELECT o_id, o_carrier_id, o_entry_d INTO v_o_id, v_carrier_id, v_entry_d
    FROM orders WHERE o_w_id = p_w_id AND o_d_id = p_d_id AND o_c_id = v_c_id
   ORDER BY o_id DESC LIMIT 1;
  SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d
    FROM order_line WHERE ol_w_id = p_w_id AND ol_d_id = p_d_id AND ol_o_id = v_o_id;
  COMMIT;
  SELECT v_c_id AS c_id, v_c_first AS c_first, v_c_middle AS c_middle, v_c_last AS c_last,
         v_c_balance AS c_balance, v_o_id AS o_id, v_entry_d AS o_entry_d, v_carrier_id AS o_carrier_id;
END $$

-- split
DELIMITER ;
