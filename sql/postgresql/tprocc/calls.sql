-- The five transactions as the driver's VU sessions call the functions of
-- functions.sql (prepared once per session). $n are bind parameters.

-- name: neworder
SELECT neword($1::integer, $2::integer, $3::integer, $4::integer[], $5::integer[], $6::integer[]) AS total;

-- name: payment
SELECT payment($1::integer, $2::integer, $3::integer, $4::integer, $5::integer, $6::boolean, $7::varchar, $8::numeric) AS c_id;

-- name: delivery
SELECT delivery($1::integer, $2::integer) AS delivered;

-- name: stocklevel
SELECT slev($1::integer, $2::integer, $3::integer) AS stock_count;

-- name: orderstatus
SELECT * FROM ostat($1::integer, $2::integer, $3::integer, $4::boolean, $5::varchar);
