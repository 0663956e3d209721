-- Runs made through the MCP server (agents) are recorded under their own surface, with the key that
-- made them: an agent acts for a member, but which of the member's keys (which agent) ran what matters
-- when one is revoked.
alter table query_history drop constraint query_history_surface_check;
alter table query_history add constraint query_history_surface_check
  check (surface in ('workspace_api', 'studio', 'studio_cml', 'question_api', 'structured_api', 'mcp'));
alter table query_history add column if not exists key_id uuid references api_keys (id) on delete set null;
