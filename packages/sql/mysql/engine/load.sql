-- MySQL's (and MariaDB's) engine-level loader (driver engine/loader.ts): a
-- build worker's statements, named. {{table}} and {{columns}} are filled
-- from the generator's column order of the table loaded; `?` values are
-- bound by the client. One transaction per generated unit.

-- name: begin
START TRANSACTION

-- name: commit
COMMIT

-- name: rollback
ROLLBACK

-- name: local_infile
-- Does the server accept LOAD DATA LOCAL? (OFF by default on MySQL 8.)
SELECT @@GLOBAL.local_infile AS enabled

-- name: load_data
-- Rows as generated: comma separated, \N for NULL, one per line. The file
-- name is a token the client's stream factory answers from memory.
LOAD DATA LOCAL INFILE ? INTO TABLE {{table}} CHARACTER SET latin1
  FIELDS TERMINATED BY ',' ({{columns}})

-- name: insert_rows
-- Fallback when the server refuses LOCAL INFILE: multi-row INSERT batches.
INSERT INTO {{table}} ({{columns}}) VALUES ?

-- name: warnings
-- Why LOAD DATA LOCAL skipped rows (it turns row errors into warnings).
SHOW WARNINGS LIMIT 3
