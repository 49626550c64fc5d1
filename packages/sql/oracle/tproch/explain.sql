-- How the Oracle driver reads a query plan: EXPLAIN PLAN writes the plan
-- of {{sql}} to PLAN_TABLE under a statement id, DBMS_XPLAN.DISPLAY
-- formats it as text lines, and the rows are removed again.

-- name: explain
EXPLAIN PLAN SET STATEMENT_ID = '{{id}}' FOR
{{sql}};

-- name: display
SELECT plan_table_output AS line FROM TABLE(DBMS_XPLAN.DISPLAY('PLAN_TABLE', :id, 'TYPICAL'));

-- name: clear
DELETE FROM plan_table WHERE statement_id = :id;
