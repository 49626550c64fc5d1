-- Drop the TPROC-H database (the eight tables go with it). Idempotent.
-- Run against master:  sqlcmd -S host -U sa -d master -v database=tpch -i drop.sql
-- Other sessions are disconnected first, except on Azure SQL Database
-- (EngineEdition 5), which has no SINGLE_USER mode.

-- name: drop_database
IF DB_ID(N'$(database)') IS NOT NULL
BEGIN
  IF CAST(SERVERPROPERTY('EngineEdition') AS int) <> 5
    EXEC (N'ALTER DATABASE [$(database)] SET SINGLE_USER WITH ROLLBACK IMMEDIATE');
  EXEC (N'DROP DATABASE [$(database)]');
END;
