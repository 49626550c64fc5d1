-- Statements of the Oracle TPROC-H admin (monitor) session. "system:"
-- statements run as target.systemUser, "user:" ones as the TPROC-H user
-- (default tpch), who owns the tables. :name are bind variables; &name are
-- SQL*Plus substitution variables the driver fills with validated
-- identifiers (and the quoted password).

-- name: server_version
-- system: 18c and later.
SELECT version_full AS version FROM product_component_version WHERE product LIKE 'Oracle%' AND ROWNUM = 1;

-- name: server_version_12c
-- system: 12c has no version_full.
SELECT version AS version FROM product_component_version WHERE product LIKE 'Oracle%' AND ROWNUM = 1;

-- name: user_exists
-- system: :username is upper case, as Oracle stores unquoted names.
SELECT COUNT(*) AS n FROM dba_users WHERE username = :username;

-- name: supplier_exists
-- system
SELECT COUNT(*) AS n FROM dba_tables WHERE owner = :username AND table_name = 'SUPPLIER';

-- name: create_user
-- system: the TPROC-H user, its tables in &tablespace.
CREATE USER &user IDENTIFIED BY "&password"
  DEFAULT TABLESPACE &tablespace
  TEMPORARY TABLESPACE &temp_tablespace;

-- name: grant_roles
-- system: CREATE SESSION and TABLE through CONNECT and RESOURCE.
GRANT CONNECT, RESOURCE TO &user;

-- name: quota
-- system
ALTER USER &user QUOTA UNLIMITED ON &tablespace;

-- name: supplier_count
-- user: HammerDB's scale factor check, count(supplier) / 10000.
SELECT COUNT(*) AS n FROM supplier;

-- name: row_count
-- user
SELECT COUNT(*) AS n FROM &table;

-- name: column_types
-- user: column types of one table, for the array-DML loader's bind definitions.
SELECT LOWER(column_name) AS name, data_type AS type_name, data_length AS max_length, nullable AS nullable
  FROM user_tab_columns
 WHERE table_name = UPPER(:table_name)
 ORDER BY column_id;
