-- TPROC-C transactions as T-SQL stored procedures, written for Sledge from
-- the TPC-C rules (hammerdb.md §5.4). Each batch ends with GO, so the file
-- runs as is:  sqlcmd -S host -U sa -d tpcc -i procedures.sql
--
-- Order lines reach NEWORD as a table-valued parameter of type
-- dbo.order_line_list (one row per line: number, item, supply warehouse,
-- quantity), sent by the client in a single RPC.
--
-- Every procedure that writes runs SET XACT_ABORT ON inside its own
-- transaction: any error (deadlock victim 1205 included) rolls the whole
-- transaction back, so a failed call leaves nothing behind.

-- name: order_line_list
CREATE TYPE dbo.order_line_list AS TABLE (
  ol_number      int NOT NULL PRIMARY KEY,
  ol_i_id        int NOT NULL,
  ol_supply_w_id int NOT NULL,
  ol_quantity    int NOT NULL
);
GO

-- name: neword
-- New order (TPC-C 2.4). The order lines come from @lines. An unknown item
-- (the client's 1% case, item 100001 on the last line) rolls back the whole
-- transaction and returns @rolled_back = 1; nothing of the order remains and
-- d_next_o_id does not advance.
-- Stock: s_quantity -= qty when at least qty + 10 remain, else s_quantity
-- - qty + 91; s_ytd += qty; s_order_cnt += 1; s_remote_cnt += 1 for a remote
-- supply warehouse. ol_amount = qty * i_price; @total_amount =
-- sum(ol_amount) * (1 - c_discount) * (1 + w_tax + d_tax).
CREATE PROCEDURE dbo.neword
  @w_id         int,
  @max_w_id     int,
  @d_id         int,
  @c_id         int,
  @o_ol_cnt     int,
  @o_all_local  int,
  @lines        dbo.order_line_list READONLY,
  @rolled_back  int OUTPUT,
  @o_id         int OUTPUT,
  @total_amount numeric(12,2) OUTPUT
AS
BEGIN
  SET NOCOUNT ON;
  SET XACT_ABORT ON;
  DECLARE @c_discount numeric(4,4), @c_last varchar(16), @c_credit char(2),
          @w_tax numeric(4,4), @d_tax numeric(4,4), @next_o_id int,
          @ol_number int, @ol_i_id int, @ol_supply_w_id int, @ol_quantity int,
          @i_price numeric(5,2), @i_name varchar(24), @i_data varchar(50),
          @s_dist_info char(24), @ol_amount numeric(6,2),
          @sum_amount numeric(12,2) = 0, @now datetime = GETDATE();
  SET @rolled_back = 0;
  SET @total_amount = 0;
  BEGIN TRANSACTION;
  SELECT @c_discount = c_discount, @c_last = c_last, @c_credit = c_credit
    FROM dbo.customer
   WHERE c_w_id = @w_id AND c_d_id = @d_id AND c_id = @c_id;
  SELECT @w_tax = w_tax FROM dbo.warehouse WHERE w_id = @w_id;
  UPDATE dbo.district
     SET @next_o_id = d_next_o_id = d_next_o_id + 1,
         @d_tax = d_tax
   WHERE d_w_id = @w_id AND d_id = @d_id;
  SET @o_id = @next_o_id - 1;
  INSERT INTO dbo.orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
  VALUES (@o_id, @d_id, @w_id, @c_id, @now, NULL, @o_ol_cnt, @o_all_local);
  INSERT INTO dbo.new_order (no_o_id, no_d_id, no_w_id) VALUES (@o_id, @d_id, @w_id);
  SET @ol_number = 1;
  WHILE @ol_number <= @o_ol_cnt
  BEGIN
    SELECT @ol_i_id = ol_i_id, @ol_supply_w_id = ol_supply_w_id, @ol_quantity = ol_quantity
      FROM @lines
     WHERE ol_number = @ol_number;
    SELECT @i_price = i_price, @i_name = i_name, @i_data = i_data
      FROM dbo.item
     WHERE i_id = @ol_i_id;
    IF @@ROWCOUNT = 0
    BEGIN
      ROLLBACK TRANSACTION;
      SET @rolled_back = 1;
      SET @o_id = NULL;
      RETURN 0;
    END;
    UPDATE dbo.stock
       SET @s_dist_info = CASE @d_id
             WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03
             WHEN 4 THEN s_dist_04 WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06
             WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08 WHEN 9 THEN s_dist_09
             ELSE s_dist_10 END,
           s_quantity = CASE WHEN s_quantity >= @ol_quantity + 10
                             THEN s_quantity - @ol_quantity
                             ELSE s_quantity - @ol_quantity + 91 END,
           s_ytd = s_ytd + @ol_quantity,
           s_order_cnt = s_order_cnt + 1,
           s_remote_cnt = s_remote_cnt + CASE WHEN @ol_supply_w_id <> @w_id THEN 1 ELSE 0 END
     WHERE s_w_id = @ol_supply_w_id AND s_i_id = @ol_i_id;
    SET @ol_amount = @ol_quantity * @i_price;
    SET @sum_amount = @sum_amount + @ol_amount;
    INSERT INTO dbo.order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id,
                                ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
    VALUES (@o_id, @d_id, @w_id, @ol_number, @ol_i_id, @ol_supply_w_id,
            NULL, @ol_quantity, @ol_amount, @s_dist_info);
    SET @ol_number = @ol_number + 1;
  END;
  COMMIT TRANSACTION;
  SET @total_amount = @sum_amount * (1 - @c_discount) * (1 + @w_tax + @d_tax);
END;
GO

-- name: payment
-- Payment (TPC-C 2.5). The customer is chosen by id, or by last name: the
-- row at position ceil(n/2) of the n matches ordered by c_first. A BC
-- customer gets "c_id c_d_id c_w_id d_id w_id amount | " prepended to c_data,
-- truncated to 500 characters. HISTORY gets h_data = w_name + 4 spaces + d_name.
CREATE PROCEDURE dbo.payment
  @w_id      int,
  @d_id      int,
  @c_w_id    int,
  @c_d_id    int,
  @c_id      int,
  @byname    int,
  @h_amount  numeric(6,2),
  @c_last    varchar(16),
  @out_c_id  int OUTPUT,
  @c_balance numeric(12,2) OUTPUT,
  @c_credit  char(2) OUTPUT
AS
BEGIN
  SET NOCOUNT ON;
  SET XACT_ABORT ON;
  DECLARE @w_name varchar(10), @d_name varchar(10), @n int, @now datetime = GETDATE();
  BEGIN TRANSACTION;
  UPDATE dbo.warehouse
     SET w_ytd = w_ytd + @h_amount, @w_name = w_name
   WHERE w_id = @w_id;
  UPDATE dbo.district
     SET d_ytd = d_ytd + @h_amount, @d_name = d_name
   WHERE d_w_id = @w_id AND d_id = @d_id;
  IF @byname = 1
  BEGIN
    SELECT @n = COUNT(*)
      FROM dbo.customer
     WHERE c_w_id = @c_w_id AND c_d_id = @c_d_id AND c_last = @c_last;
    IF @n = 0
    BEGIN
      ROLLBACK TRANSACTION;
      THROW 50001, 'payment: no customer has that last name', 1;
    END;
    SELECT @c_id = c_id
      FROM dbo.customer
     WHERE c_w_id = @c_w_id AND c_d_id = @c_d_id AND c_last = @c_last
     ORDER BY c_first, c_id
    OFFSET ((@n + 1) / 2 - 1) ROWS FETCH NEXT 1 ROWS ONLY;
  END;
  UPDATE dbo.customer
     SET @c_balance = c_balance = c_balance - @h_amount,
         c_ytd_payment = c_ytd_payment + @h_amount,
         c_payment_cnt = c_payment_cnt + 1,
         c_data = CASE WHEN c_credit = 'BC'
                       THEN LEFT(CONCAT(@c_id, ' ', @c_d_id, ' ', @c_w_id, ' ', @d_id, ' ', @w_id, ' ',
                                        @h_amount, ' | ', c_data), 500)
                       ELSE c_data END,
         @c_credit = c_credit
   WHERE c_w_id = @c_w_id AND c_d_id = @c_d_id AND c_id = @c_id;
  INSERT INTO dbo.history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
  VALUES (@c_id, @c_d_id, @c_w_id, @d_id, @w_id, @now, @h_amount, CONCAT(@w_name, '    ', @d_name));
  COMMIT TRANSACTION;
  SET @out_c_id = @c_id;
END;
GO

-- name: delivery
-- Delivery (TPC-C 2.7): for each of the 10 districts, the oldest NEW_ORDER
-- row is deleted, its order gets the carrier, its lines the delivery date,
-- and the customer's balance grows by the sum of the line amounts. A
-- district with no undelivered order (or whose oldest order another
-- session delivered first) is skipped. @delivered counts the districts done.
CREATE PROCEDURE dbo.delivery
  @w_id         int,
  @o_carrier_id int,
  @delivered    int OUTPUT
AS
BEGIN
  SET NOCOUNT ON;
  SET XACT_ABORT ON;
  DECLARE @d_id int = 1, @no_o_id int, @c_id int, @ol_total numeric(12,2), @now datetime = GETDATE();
  SET @delivered = 0;
  BEGIN TRANSACTION;
  WHILE @d_id <= 10
  BEGIN
    SET @no_o_id = NULL;
    SELECT TOP (1) @no_o_id = no_o_id
      FROM dbo.new_order WITH (UPDLOCK, ROWLOCK)
     WHERE no_w_id = @w_id AND no_d_id = @d_id
     ORDER BY no_o_id;
    IF @no_o_id IS NOT NULL
    BEGIN
      DELETE FROM dbo.new_order
       WHERE no_w_id = @w_id AND no_d_id = @d_id AND no_o_id = @no_o_id;
      IF @@ROWCOUNT > 0
      BEGIN
        UPDATE dbo.orders
           SET o_carrier_id = @o_carrier_id, @c_id = o_c_id
         WHERE o_w_id = @w_id AND o_d_id = @d_id AND o_id = @no_o_id;
        SELECT @ol_total = ISNULL(SUM(ol_amount), 0)
          FROM dbo.order_line
         WHERE ol_w_id = @w_id AND ol_d_id = @d_id AND ol_o_id = @no_o_id;
        UPDATE dbo.order_line
           SET ol_delivery_d = @now
         WHERE ol_w_id = @w_id AND ol_d_id = @d_id AND ol_o_id = @no_o_id;
        UPDATE dbo.customer
           SET c_balance = c_balance + @ol_total,
               c_delivery_cnt = c_delivery_cnt + 1
         WHERE c_w_id = @w_id AND c_d_id = @d_id AND c_id = @c_id;
        SET @delivered = @delivered + 1;
      END;
    END;
    SET @d_id = @d_id + 1;
  END;
  COMMIT TRANSACTION;
END;
GO

-- name: slev
-- Stock level (TPC-C 2.8): distinct items of the district's last 20 orders
-- whose home-warehouse stock is below the threshold.
CREATE PROCEDURE dbo.slev
  @w_id        int,
  @d_id        int,
  @threshold   int,
  @stock_count int OUTPUT
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @next_o_id int;
  SELECT @next_o_id = d_next_o_id FROM dbo.district WHERE d_w_id = @w_id AND d_id = @d_id;
  SELECT @stock_count = COUNT(DISTINCT s.s_i_id)
    FROM dbo.order_line ol
    JOIN dbo.stock s ON s.s_w_id = @w_id AND s.s_i_id = ol.ol_i_id
   WHERE ol.ol_w_id = @w_id AND ol.ol_d_id = @d_id
     AND ol.ol_o_id >= @next_o_id - 20 AND ol.ol_o_id < @next_o_id
     AND s.s_quantity < @threshold;
END;
GO

-- name: ostat
-- Order status (TPC-C 2.6): the customer (by id, or by last name at
-- position ceil(n/2) ordered by c_first), the customer's latest order, and
-- that order's lines, returned as a result set.
CREATE PROCEDURE dbo.ostat
  @w_id       int,
  @d_id       int,
  @c_id       int,
  @byname     int,
  @c_last     varchar(16),
  @out_c_id   int OUTPUT,
  @o_id       int OUTPUT,
  @line_count int OUTPUT
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @n int, @c_first varchar(16), @c_middle char(2), @c_balance numeric(12,2),
          @o_entry_d datetime, @o_carrier_id smallint;
  IF @byname = 1
  BEGIN
    SELECT @n = COUNT(*)
      FROM dbo.customer
     WHERE c_w_id = @w_id AND c_d_id = @d_id AND c_last = @c_last;
    IF @n = 0
      THROW 50002, 'ostat: no customer has that last name', 1;
    SELECT @c_id = c_id
      FROM dbo.customer
     WHERE c_w_id = @w_id AND c_d_id = @d_id AND c_last = @c_last
     ORDER BY c_first, c_id
    OFFSET ((@n + 1) / 2 - 1) ROWS FETCH NEXT 1 ROWS ONLY;
  END;
  SELECT @c_balance = c_balance, @c_first = c_first, @c_middle = c_middle, @c_last = c_last
    FROM dbo.customer
   WHERE c_w_id = @w_id AND c_d_id = @d_id AND c_id = @c_id;
  SELECT TOP (1) @o_id = o_id, @o_entry_d = o_entry_d, @o_carrier_id = o_carrier_id
    FROM dbo.orders
   WHERE o_w_id = @w_id AND o_d_id = @d_id AND o_c_id = @c_id
   ORDER BY o_id DESC;
  SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d
    FROM dbo.order_line
   WHERE ol_w_id = @w_id AND ol_d_id = @d_id AND ol_o_id = @o_id;
  SET @line_count = @@ROWCOUNT;
  SET @out_c_id = @c_id;
END;
GO
