-- Drop CH-benCHmark's three extra tables (keys and indexes go with them),
-- leaving TPROC-C's nine. Idempotent: a table that does not exist
-- (ORA-00942) is skipped. Run as the TPROC-C user:
--   sqlplus tpcc/tpcc@//host:1521/FREEPDB1 @drop.sql

-- name: drop_supplier
BEGIN
  EXECUTE IMMEDIATE 'DROP TABLE supplier CASCADE CONSTRAINTS PURGE';
EXCEPTION
  WHEN OTHERS THEN
    IF SQLCODE <> -942 THEN RAISE; END IF;
END;
/

-- name: drop_nation
BEGIN
  EXECUTE IMMEDIATE 'DROP TABLE nation CASCADE CONSTRAINTS PURGE';
EXCEPTION
  WHEN OTHERS THEN
    IF SQLCODE <> -942 THEN RAISE; END IF;
END;
/

-- name: drop_region
BEGIN
  EXECUTE IMMEDIATE 'DROP TABLE region CASCADE CONSTRAINTS PURGE';
EXCEPTION
  WHEN OTHERS THEN
    IF SQLCODE <> -942 THEN RAISE; END IF;
END;
/
