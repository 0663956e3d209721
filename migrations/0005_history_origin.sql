-- Governed runs are recorded too (structured queries, questions, the editor's CML builder, and later
-- scenes, mosaics and signals): the surface says which API, the origin says what asked for the run.
alter table query_history drop constraint query_history_surface_check;
alter table query_history add constraint query_history_surface_check
  check (surface in ('workspace_api', 'studio', 'studio_cml', 'question_api', 'structured_api'));
alter table query_history add column origin text not null default 'sql';
create index query_history_workspace_idx on query_history (workspace_id, created_at desc);
