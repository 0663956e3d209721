-- Every raw SQL run (surfaces B and D, and the SQL-editor's CML runs), successful or not.
create table query_history (
  id              uuid primary key default gen_random_uuid(),
  workspace_id    uuid not null references workspaces (id) on delete cascade,
  user_id         uuid references users (id) on delete set null,
  connection_id   uuid references connections (id) on delete set null,
  connection_name text not null,
  source          text not null,              -- the service's name for runs it makes on a user's behalf
  surface         text not null check (surface in ('workspace_api', 'studio', 'studio_cml')),
  sql             text not null,
  status          text not null check (status in ('success', 'error', 'refused')),
  error           text,
  row_count       integer,
  duration_ms     integer,
  created_at      timestamptz not null default now()
);
create index query_history_user_idx on query_history (workspace_id, user_id, created_at desc);
