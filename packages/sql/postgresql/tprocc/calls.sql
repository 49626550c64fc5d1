-- The five transactions as the driver's VU sessions call them, prepared once
-- per session. $n are bind parameters (psql cannot bind them; use PREPARE /
-- EXECUTE by hand).
--   select_<tx>: the functions of functions.sql (target.storedProcs off).
--   call_<tx>:   the procedures of procedures.sql (target.storedProcs on);
--                the trailing NULLs fill the INOUT results.

-- name: select_neworder
SELECT neword($1::integer, $2::integer, $3::integer, $4::integer[], $5::integer[], $6::integer[]) AS total;

-- name: select_payment
SELECT payment($1::integer, $2::integer, $3::integer, $4::integer, $5::integer, $6::boolean, $7::varchar, $8::numeric) AS c_id;

-- name: select_delivery
SELECT delivery($1::integer, $2::integer) AS delivered;

-- name: select_stocklevel
SELECT slev($1::integer, $2::integer, $3::integer) AS stock_count;

-- name: select_orderstatus
SELECT * FROM ostat($1::integer, $2::integer, $3::integer, $4::boolean, $5::varchar);

-- name: call_neworder
CALL neword($1::integer, $2::integer, $3::integer, $4::integer[], $5::integer[], $6::integer[], NULL::integer, NULL::numeric);

-- name: call_payment
CALL payment($1::integer, $2::integer, $3::integer, $4::integer, $5::integer, $6::boolean, $7::varchar, $8::numeric,
             NULL::integer, NULL::char, NULL::numeric);

-- name: call_delivery
CALL delivery($1::integer, $2::integer, NULL::integer);

-- name: call_stocklevel
CALL slev($1::integer, $2::integer, $3::integer, NULL::integer);

-- name: call_orderstatus
CALL ostat($1::integer, $2::integer, $3::integer, $4::boolean, $5::varchar,
           NULL::integer, NULL::varchar, NULL::varchar, NULL::char, NULL::numeric,
           NULL::integer, NULL::timestamptz, NULL::integer, NULL::json);
