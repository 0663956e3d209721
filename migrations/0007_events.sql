-- The outbox: every event the service emits (model.deployed, signal.triggered, test events), written
-- in the same transaction as what caused it, so a crash between the two cannot lose it. Deliveries to
-- webhook endpoints are made from these rows.
create table events (
  id            uuid primary key default gen_random_uuid(),
  workspace_id  uuid not null references workspaces (id) on delete cascade,
  type          text not null,
  payload       jsonb not null,
  created_at    timestamptz not null default now()
);
create index events_workspace_idx on events (workspace_id, created_at desc);
