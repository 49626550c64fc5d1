-- TPROC-C transactions as PostgreSQL 11+ procedures (target.storedProcs on).
-- The driver calls them with CALL through prepared statements
-- (calls.sql, call_<tx>), passing NULL for the INOUT results, which come back as
-- the CALL's one result row. Run as the TPC user:
--   psql -d tpcc -U tpcc -f procedures.sql
--
-- Procedures and functions (functions.sql) share the five names, so one
-- variant replaces the other: the block below first drops any routine of
-- those names, whatever its kind or signature, in the current schema.
--
-- Semantics are those of functions.sql (TPC-C clauses 2.4-2.8), including
-- SQLSTATE 'SLRBK' for the new-order rollback on an unknown item.

DO $$
DECLARE
  r record;
BEGIN
  FOR r IN
    SELECT p.oid::regprocedure AS sig
      FROM pg_proc p
     WHERE p.pronamespace = (SELECT n.oid FROM pg_namespace n WHERE n.nspname = current_schema())
       AND p.proname IN ('neword', 'payment', 'delivery', 'slev', 'ostat')
  LOOP
    EXECUTE 'DROP ROUTINE ' || r.sig;
  END LOOP;
END
$$;

-- New order (clause 2.4). Results: the order id and the order total.
--
-- Server cost (issue 17), as in functions.sql: the items of all lines are
-- read by one statement before anything is written (an unused item raises
-- SLRBK there); one statement updates the stock rows in line order and
-- inserts the order lines, unless an item and supply warehouse repeat, when
-- the stock is updated one statement per line (the row once per line).
CREATE PROCEDURE neword(
  p_w_id          integer,
  p_d_id          integer,
  p_c_id          integer,
  p_i_ids         integer[],
  p_supply_w_ids  integer[],
  p_quantities    integer[],
  INOUT out_o_id  integer,
  INOUT out_total numeric
)
LANGUAGE plpgsql AS $$
DECLARE
  v_ol_cnt     integer := cardinality(p_i_ids);
  v_c_discount numeric(4,4);
  v_c_last     varchar(16);
  v_c_credit   char(2);
  v_w_tax      numeric(4,4);
  v_d_tax      numeric(4,4);
  v_all_local  smallint;
  v_prices     numeric(5,2)[];
  v_missing    integer;
  v_dists      char(24)[];
  v_s_dist     char(24);
  v_repeats    boolean;
  v_rows       integer;
  v_now        timestamptz := current_timestamp;
BEGIN
  IF v_ol_cnt IS NULL OR v_ol_cnt <> cardinality(p_supply_w_ids) OR v_ol_cnt <> cardinality(p_quantities) THEN
    RAISE EXCEPTION 'neword: item, supply warehouse and quantity arrays differ in length' USING ERRCODE = '22023';
  END IF;
  out_total := 0;

  -- I_PRICE of every line, in line order; the first line naming no item.
  SELECT array_agg(i.i_price ORDER BY u.n), (array_agg(u.id ORDER BY u.n) FILTER (WHERE i.i_id IS NULL))[1],
         count(DISTINCT (u.id, u.s)) < count(*)
    INTO v_prices, v_missing, v_repeats
    FROM unnest(p_i_ids, p_supply_w_ids) WITH ORDINALITY AS u(id, s, n)
    LEFT JOIN item i ON i.i_id = u.id;
  IF v_missing IS NOT NULL THEN
    -- Clause 2.4.2.3: an unused item number rolls the whole transaction back.
    RAISE EXCEPTION 'neword: item % not found, new order rolled back', v_missing USING ERRCODE = 'SLRBK';
  END IF;

  SELECT w_tax INTO v_w_tax FROM warehouse WHERE w_id = p_w_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'neword: warehouse % not found', p_w_id USING ERRCODE = 'P0002';
  END IF;

  UPDATE district SET d_next_o_id = d_next_o_id + 1
   WHERE d_w_id = p_w_id AND d_id = p_d_id
  RETURNING d_next_o_id - 1, d_tax INTO out_o_id, v_d_tax;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'neword: district %/% not found', p_w_id, p_d_id USING ERRCODE = 'P0002';
  END IF;

  SELECT c_discount, c_last, c_credit INTO v_c_discount, v_c_last, v_c_credit
    FROM customer
   WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = p_c_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'neword: customer %/%/% not found', p_w_id, p_d_id, p_c_id USING ERRCODE = 'P0002';
  END IF;

  v_all_local := CASE WHEN p_w_id = ALL (p_supply_w_ids) THEN 1 ELSE 0 END;

  INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
  VALUES (out_o_id, p_d_id, p_w_id, p_c_id, v_now, NULL, v_ol_cnt, v_all_local);
  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (out_o_id, p_d_id, p_w_id);

  IF NOT v_repeats THEN
    -- Each line names a different stock row: one statement updates them all (a nested loop
    -- over the lines in line order, so rows are locked in line order) and inserts the lines.
    WITH st AS (
      UPDATE stock s
         SET s_quantity   = CASE WHEN s.s_quantity - u.q < 10 THEN s.s_quantity - u.q + 91 ELSE s.s_quantity - u.q END,
             s_ytd        = s.s_ytd + u.q,
             s_order_cnt  = s.s_order_cnt + 1,
             s_remote_cnt = s.s_remote_cnt + CASE WHEN u.s <> p_w_id THEN 1 ELSE 0 END
        FROM unnest(p_i_ids, p_supply_w_ids, p_quantities, v_prices) WITH ORDINALITY AS u(i, s, q, p, n)
       WHERE s.s_i_id = u.i AND s.s_w_id = u.s
      RETURNING u.n, u.i, u.s, u.q, u.p,
                CASE p_d_id
                  WHEN 1 THEN s.s_dist_01 WHEN 2 THEN s.s_dist_02 WHEN 3 THEN s.s_dist_03
                  WHEN 4 THEN s.s_dist_04 WHEN 5 THEN s.s_dist_05 WHEN 6 THEN s.s_dist_06
                  WHEN 7 THEN s.s_dist_07 WHEN 8 THEN s.s_dist_08 WHEN 9 THEN s.s_dist_09
                  ELSE s.s_dist_10 END AS dist
    ), lines AS (
      INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id,
                              ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
      SELECT out_o_id, p_d_id, p_w_id, st.n, st.i, st.s, NULL, st.q,
             (st.q * st.p * (1 + v_w_tax + v_d_tax) * (1 - v_c_discount))::numeric(6,2), st.dist
        FROM st ORDER BY st.n
      RETURNING ol_amount
    )
    SELECT coalesce(sum(ol_amount), 0), count(*) INTO out_total, v_rows FROM lines;
    IF v_rows < v_ol_cnt THEN
      SELECT u.s, u.i INTO v_missing, v_rows
        FROM unnest(p_i_ids, p_supply_w_ids) WITH ORDINALITY AS u(i, s, n)
       WHERE NOT EXISTS (SELECT 1 FROM stock s WHERE s.s_i_id = u.i AND s.s_w_id = u.s)
       ORDER BY u.n LIMIT 1;
      RAISE EXCEPTION 'neword: stock %/% not found', v_missing, v_rows USING ERRCODE = 'P0002';
    END IF;
    RETURN;
  END IF;

  -- A repeated item and supply warehouse: one statement per line, so the row is updated once per line.
  FOR i IN 1 .. v_ol_cnt LOOP
    UPDATE stock
       SET s_quantity   = CASE WHEN s_quantity - p_quantities[i] < 10
                               THEN s_quantity - p_quantities[i] + 91
                               ELSE s_quantity - p_quantities[i] END,
           s_ytd        = s_ytd + p_quantities[i],
           s_order_cnt  = s_order_cnt + 1,
           s_remote_cnt = s_remote_cnt + CASE WHEN p_supply_w_ids[i] <> p_w_id THEN 1 ELSE 0 END
     WHERE s_i_id = p_i_ids[i] AND s_w_id = p_supply_w_ids[i]
    RETURNING CASE p_d_id
                WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03
                WHEN 4 THEN s_dist_04 WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06
                WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08 WHEN 9 THEN s_dist_09
                ELSE s_dist_10 END
      INTO v_s_dist;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'neword: stock %/% not found', p_supply_w_ids[i], p_i_ids[i] USING ERRCODE = 'P0002';
    END IF;
    v_dists[i] := v_s_dist;
  END LOOP;

  -- ol_amount rounds to numeric(6,2) per line; the total is the sum of the rounded amounts.
  WITH lines AS (
    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id,
                            ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
    SELECT out_o_id, p_d_id, p_w_id, u.n, u.i, u.s, NULL, u.q,
           (u.q * u.p * (1 + v_w_tax + v_d_tax) * (1 - v_c_discount))::numeric(6,2), u.dist
      FROM unnest(p_i_ids, p_supply_w_ids, p_quantities, v_prices, v_dists) WITH ORDINALITY AS u(i, s, q, p, dist, n)
    RETURNING ol_amount
  )
  SELECT coalesce(sum(ol_amount), 0) INTO out_total FROM lines;
END
$$;

-- Payment (clause 2.5). By last name, the customer at position ceil(n/2)
-- (1-based) of the n matches ordered by c_first. Results: the customer paid,
-- their credit and new balance. As in functions.sql, the namesakes (no lock)
-- are read before the warehouse row is updated.
CREATE PROCEDURE payment(
  p_w_id              integer,
  p_d_id              integer,
  p_c_w_id            integer,
  p_c_d_id            integer,
  p_c_id              integer,
  p_byname            boolean,
  p_c_last            varchar,
  p_amount            numeric,
  INOUT out_c_id      integer,
  INOUT out_c_credit  char,
  INOUT out_c_balance numeric
)
LANGUAGE plpgsql AS $$
DECLARE
  v_w_name varchar(10);
  v_d_name varchar(10);
  v_count  integer;
  v_amount numeric(6,2) := p_amount;
BEGIN
  out_c_id := p_c_id;
  IF p_byname THEN
    SELECT count(*) INTO v_count
      FROM customer WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_last = p_c_last;
    IF v_count = 0 THEN
      RAISE EXCEPTION 'payment: no customer named % in %/%', p_c_last, p_c_w_id, p_c_d_id USING ERRCODE = 'P0002';
    END IF;
    SELECT c_id INTO out_c_id
      FROM customer WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_last = p_c_last
     ORDER BY c_first, c_id
    OFFSET (v_count + 1) / 2 - 1 LIMIT 1;
  END IF;

  UPDATE warehouse SET w_ytd = w_ytd + v_amount WHERE w_id = p_w_id
  RETURNING w_name INTO v_w_name;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'payment: warehouse % not found', p_w_id USING ERRCODE = 'P0002';
  END IF;

  UPDATE district SET d_ytd = d_ytd + v_amount WHERE d_w_id = p_w_id AND d_id = p_d_id
  RETURNING d_name INTO v_d_name;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'payment: district %/% not found', p_w_id, p_d_id USING ERRCODE = 'P0002';
  END IF;

  UPDATE customer
     SET c_balance     = c_balance - v_amount,
         c_ytd_payment = c_ytd_payment + v_amount,
         c_payment_cnt = c_payment_cnt + 1,
         c_data        = CASE WHEN c_credit = 'BC'
                              THEN left(format('%s %s %s %s %s %s | ', c_id, c_d_id, c_w_id, p_d_id, p_w_id, v_amount) || c_data, 500)
                              ELSE c_data END
   WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_id = out_c_id
  RETURNING c_credit, c_balance INTO out_c_credit, out_c_balance;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'payment: customer %/%/% not found', p_c_w_id, p_c_d_id, out_c_id USING ERRCODE = 'P0002';
  END IF;

  INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
  VALUES (out_c_id, p_c_d_id, p_c_w_id, p_d_id, p_w_id, current_timestamp, v_amount, v_w_name || '    ' || v_d_name);
END
$$;

-- Delivery (clause 2.7), all ten districts in one transaction. A district
-- without undelivered orders is skipped. Result: the orders delivered.
CREATE PROCEDURE delivery(
  p_w_id              integer,
  p_carrier_id        integer,
  INOUT out_delivered integer
)
LANGUAGE plpgsql AS $$
DECLARE
  v_o_id   integer;
  v_c_id   integer;
  v_amount numeric;
  v_now    timestamptz := current_timestamp;
BEGIN
  out_delivered := 0;
  FOR v_d_id IN 1 .. 10 LOOP
    -- Oldest undelivered order. If a concurrent delivery took it first, look again.
    LOOP
      SELECT min(no_o_id) INTO v_o_id FROM new_order WHERE no_w_id = p_w_id AND no_d_id = v_d_id;
      EXIT WHEN v_o_id IS NULL;
      DELETE FROM new_order WHERE no_w_id = p_w_id AND no_d_id = v_d_id AND no_o_id = v_o_id;
      EXIT WHEN FOUND;
    END LOOP;
    CONTINUE WHEN v_o_id IS NULL;

    UPDATE orders SET o_carrier_id = p_carrier_id
     WHERE o_w_id = p_w_id AND o_d_id = v_d_id AND o_id = v_o_id
    RETURNING o_c_id INTO v_c_id;

    WITH delivered AS (
      UPDATE order_line SET ol_delivery_d = v_now
       WHERE ol_w_id = p_w_id AND ol_d_id = v_d_id AND ol_o_id = v_o_id
      RETURNING ol_amount
    )
    SELECT coalesce(sum(ol_amount), 0) INTO v_amount FROM delivered;

    UPDATE customer
       SET c_balance = c_balance + v_amount,
           c_delivery_cnt = c_delivery_cnt + 1
     WHERE c_w_id = p_w_id AND c_d_id = v_d_id AND c_id = v_c_id;

    out_delivered := out_delivered + 1;
  END LOOP;
END
$$;

-- Stock level (clause 2.8). Result: distinct items of the district's last 20
-- orders whose stock in the home warehouse is below the threshold.
-- Planned once per session (plan_cache_mode; see functions.sql).
CREATE PROCEDURE slev(
  p_w_id                integer,
  p_d_id                integer,
  p_threshold           integer,
  INOUT out_stock_count integer
)
SET plan_cache_mode = force_generic_plan
LANGUAGE plpgsql AS $$
DECLARE
  v_next_o_id integer;
BEGIN
  SELECT d_next_o_id INTO v_next_o_id FROM district WHERE d_w_id = p_w_id AND d_id = p_d_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'slev: district %/% not found', p_w_id, p_d_id USING ERRCODE = 'P0002';
  END IF;

  SELECT count(DISTINCT s_i_id) INTO out_stock_count
    FROM order_line, stock
   WHERE ol_w_id = p_w_id
     AND ol_d_id = p_d_id
     AND ol_o_id < v_next_o_id
     AND ol_o_id >= v_next_o_id - 20
     AND s_w_id = p_w_id
     AND s_i_id = ol_i_id
     AND s_quantity < p_threshold;
END
$$;

-- Order status (clause 2.6): the customer (by id, or by last name taking the
-- row at position ceil(n/2) ordered by c_first), their latest order, and its
-- lines as a JSON array ordered by ol_number (NULL when the customer has no order).
CREATE PROCEDURE ostat(
  p_w_id                 integer,
  p_d_id                 integer,
  p_c_id                 integer,
  p_byname               boolean,
  p_c_last               varchar,
  INOUT out_c_id         integer,
  INOUT out_c_last       varchar,
  INOUT out_c_first      varchar,
  INOUT out_c_middle     char,
  INOUT out_c_balance    numeric,
  INOUT out_o_id         integer,
  INOUT out_o_entry_d    timestamptz,
  INOUT out_o_carrier_id integer,
  INOUT out_lines        json
)
LANGUAGE plpgsql AS $$
DECLARE
  v_count integer;
BEGIN
  out_c_id := p_c_id;
  IF p_byname THEN
    SELECT count(*) INTO v_count
      FROM customer c WHERE c.c_w_id = p_w_id AND c.c_d_id = p_d_id AND c.c_last = p_c_last;
    IF v_count = 0 THEN
      RAISE EXCEPTION 'ostat: no customer named % in %/%', p_c_last, p_w_id, p_d_id USING ERRCODE = 'P0002';
    END IF;
    SELECT c.c_id INTO out_c_id
      FROM customer c WHERE c.c_w_id = p_w_id AND c.c_d_id = p_d_id AND c.c_last = p_c_last
     ORDER BY c.c_first, c.c_id
    OFFSET (v_count + 1) / 2 - 1 LIMIT 1;
  END IF;

  SELECT c.c_last, c.c_first, c.c_middle, c.c_balance
    INTO out_c_last, out_c_first, out_c_middle, out_c_balance
    FROM customer c WHERE c.c_w_id = p_w_id AND c.c_d_id = p_d_id AND c.c_id = out_c_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'ostat: customer %/%/% not found', p_w_id, p_d_id, out_c_id USING ERRCODE = 'P0002';
  END IF;

  SELECT o.o_id, o.o_entry_d, o.o_carrier_id INTO out_o_id, out_o_entry_d, out_o_carrier_id
    FROM orders o
   WHERE o.o_w_id = p_w_id AND o.o_d_id = p_d_id AND o.o_c_id = out_c_id
   ORDER BY o.o_id DESC LIMIT 1;
  IF NOT FOUND THEN
    RETURN;
  END IF;

  SELECT json_agg(json_build_object(
           'i_id', l.ol_i_id, 'supply_w_id', l.ol_supply_w_id, 'quantity', l.ol_quantity,
           'amount', l.ol_amount, 'delivery_d', l.ol_delivery_d) ORDER BY l.ol_number)
    INTO out_lines
    FROM order_line l
   WHERE l.ol_w_id = p_w_id AND l.ol_d_id = p_d_id AND l.ol_o_id = out_o_id;
END
$$;
