-- Drop the TPROC-H user and everything it owns. Run as the system user:
--   sqlplus system/manager@//host:1521/FREEPDB1 @drop.sql   (DEFINE user=tpch first)
-- The driver runs these only when the user exists. Sessions of the user
-- (query streams left behind) are killed first, as DROP USER refuses a
-- connected user (ORA-01940).

-- name: kill_sessions
BEGIN
  FOR s IN (SELECT sid, serial# AS serial FROM v$session WHERE username = UPPER('&user')) LOOP
    BEGIN
      EXECUTE IMMEDIATE 'ALTER SYSTEM KILL SESSION ''' || s.sid || ',' || s.serial || ''' IMMEDIATE';
    EXCEPTION
      WHEN OTHERS THEN NULL;
    END;
  END LOOP;
END;
/

-- name: drop_user
DROP USER &user CASCADE;
