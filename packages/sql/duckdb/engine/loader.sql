-- DuckDB's bulk path: the loaders stage generated rows as '|'-separated
-- files (dbgen's .tbl form, no quoting: generated values hold no '|' or
-- newline), and the admin session reads them all into a table with one COPY
-- (DuckDB's parallel CSV reader; the files placeholder is a quoted glob of
-- the staged files, the table placeholder the table). NULLSTR is a text no value holds, so an empty
-- text stays an empty text.

-- name: copy_staged
COPY {{table}} FROM {{files}} (FORMAT csv, DELIMITER '|', HEADER false, QUOTE '', ESCAPE '', NULLSTR '\N', DATEFORMAT '%Y-%m-%d');

-- name: copy_staged_csv
-- The same for staged comma-separated files (TPROC-C's 'csv' rows:
-- generated values hold no comma, quote or newline; timestamps are
-- 'YYYY-MM-DD HH:MM:SS').
COPY {{table}} FROM {{files}} (FORMAT csv, DELIMITER ',', HEADER false, QUOTE '', ESCAPE '', NULLSTR '\N', TIMESTAMPFORMAT '%Y-%m-%d %H:%M:%S');
