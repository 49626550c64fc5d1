-- Drop the TPROC-C schema: the driver owns a whole database for it.
-- {{database}} is the backquoted target.database. Idempotent.
DROP DATABASE IF EXISTS {{database}};
