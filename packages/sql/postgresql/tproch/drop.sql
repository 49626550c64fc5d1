-- Drop the TPROC-H tables (keys and indexes go with them), for a TPC-H
-- schema in a database Sledge did not create; otherwise the database is
-- dropped whole (admin.sql). Idempotent. Runnable with: psql -d tpch -f drop.sql
DROP TABLE IF EXISTS lineitem CASCADE;
DROP TABLE IF EXISTS orders CASCADE;
DROP TABLE IF EXISTS partsupp CASCADE;
DROP TABLE IF EXISTS part CASCADE;
DROP TABLE IF EXISTS customer CASCADE;
DROP TABLE IF EXISTS supplier CASCADE;
DROP TABLE IF EXISTS nation CASCADE;
DROP TABLE IF EXISTS region CASCADE;
