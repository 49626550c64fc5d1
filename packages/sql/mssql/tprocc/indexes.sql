-- Secondary indexes for SQL Server, created after the load (the clustered
-- primary keys are part of tables.sql). Then statistics are refreshed.
--   sqlcmd -S host -U sa -d tpcc -i indexes.sql

-- name: customer_i2
CREATE UNIQUE NONCLUSTERED INDEX customer_i2
  ON dbo.customer (c_w_id, c_d_id, c_last, c_first, c_id);

-- name: orders_i2
CREATE UNIQUE NONCLUSTERED INDEX orders_i2
  ON dbo.orders (o_w_id, o_d_id, o_c_id, o_id);

-- name: statistics
EXEC sp_updatestats;
