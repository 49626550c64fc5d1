-- The five transactions as the driver's VU sessions call the procedures of
-- procedures.sql (prepared once per session). $n are bind parameters; the
-- trailing NULLs fill the INOUT results.

-- name: neworder
CALL neword($1::integer, $2::integer, $3::integer, $4::integer[], $5::integer[], $6::integer[], NULL::integer, NULL::numeric);

-- name: payment
CALL payment($1::integer, $2::integer, $3::integer, $4::integer, $5::integer, $6::boolean, $7::varchar, $8::numeric,
             NULL::integer, NULL::char, NULL::numeric);

-- name: delivery
CALL delivery($1::integer, $2::integer, NULL::integer);

-- name: stocklevel
CALL slev($1::integer, $2::integer, $3::integer, NULL::integer);

-- name: orderstatus
CALL ostat($1::integer, $2::integer, $3::integer, $4::boolean, $5::varchar,
           NULL::integer, NULL::varchar, NULL::varchar, NULL::char, NULL::numeric,
           NULL::integer, NULL::timestamptz, NULL::integer, NULL::json);
