-- The question API's raw-SQL fallback runs SQL for its askers: it is recorded in the history too.
alter table query_history drop constraint query_history_surface_check;
alter table query_history add constraint query_history_surface_check
  check (surface in ('workspace_api', 'studio', 'studio_cml', 'question_api'));
