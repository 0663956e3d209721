-- Statements a BI tool or any PostgreSQL client runs over the SQL interface (the PostgreSQL protocol)
-- are recorded under their own surface, with the key the connection signed in with.
alter table query_history drop constraint query_history_surface_check;
alter table query_history add constraint query_history_surface_check
  check (surface in ('workspace_api', 'studio', 'studio_cml', 'question_api', 'structured_api', 'mcp', 'sql_api'));
