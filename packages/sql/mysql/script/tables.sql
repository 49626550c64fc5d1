-- pgbench's four tables (pgbench -i), as its documentation describes them (InnoDB); keys come after the load (keys.sql).
CREATE TABLE pgbench_history (tid INT, bid INT, aid INT, delta INT, mtime TIMESTAMP NULL, filler CHAR(22)) ENGINE = InnoDB;
CREATE TABLE pgbench_tellers (tid INT NOT NULL, bid INT, tbalance INT, filler CHAR(84)) ENGINE = InnoDB;
CREATE TABLE pgbench_accounts (aid INT NOT NULL, bid INT, abalance INT, filler CHAR(84)) ENGINE = InnoDB;
CREATE TABLE pgbench_branches (bid INT NOT NULL, bbalance INT, filler CHAR(88)) ENGINE = InnoDB;
