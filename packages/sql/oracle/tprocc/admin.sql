-- Statements of the Oracle admin (monitor) session. "system:" statements
-- run as target.systemUser, "user:" ones as the TPROC-C user. :name are
-- bind variables; &name are SQL*Plus substitution variables the driver
-- fills with validated identifiers (and the quoted password).

-- name: server_version
-- system: 18c and later.
SELECT version_full AS version FROM product_component_version WHERE product LIKE 'Oracle%' AND ROWNUM = 1;

-- name: server_version_12c
-- system: 12c has no version_full.
SELECT version AS version FROM product_component_version WHERE product LIKE 'Oracle%' AND ROWNUM = 1;

-- name: user_exists
-- system: :username is upper case, as Oracle stores unquoted names.
SELECT COUNT(*) AS n FROM dba_users WHERE username = :username;

-- name: warehouse_table_exists
-- system
SELECT COUNT(*) AS n FROM dba_tables WHERE owner = :username AND table_name = 'WAREHOUSE';

-- name: create_user
-- system
CREATE USER &user IDENTIFIED BY "&password"
  DEFAULT TABLESPACE &default_tablespace
  TEMPORARY TABLESPACE &temp_tablespace;

-- name: grant_roles
-- system: CREATE SESSION, TABLE, PROCEDURE, TYPE ... through CONNECT and RESOURCE.
GRANT CONNECT, RESOURCE TO &user;

-- name: quota_default
-- system
ALTER USER &user QUOTA UNLIMITED ON &default_tablespace;

-- name: quota_order_line
-- system
ALTER USER &user QUOTA UNLIMITED ON &order_line_tablespace;

-- name: max_warehouse
-- user
SELECT NVL(MAX(w_id), 0) AS w FROM warehouse;

-- name: compile_errors
-- user: why a CREATE PROCEDURE compiled with errors.
SELECT line AS line, position AS position, text AS text
  FROM user_errors
 WHERE name = UPPER(:name)
 ORDER BY sequence;
