-- Remove the TPROC-C objects from the current database: the five routines
-- (function or procedure variant, any signature) and the nine tables
-- (with ORDER_LINE partitions). Safe to run twice.
-- The driver uses this only when the TPC database is the default database
-- (target.database = target.defaultDatabase); otherwise it drops the whole
-- database and role (admin.sql).  psql -d tpcc -U tpcc -f drop.sql

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

DROP TABLE IF EXISTS order_line, new_order, orders, history, customer, district, stock, item, warehouse;
