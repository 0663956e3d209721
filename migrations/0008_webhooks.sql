-- Webhook endpoints and their deliveries. The rows are the whole state of delivery: a worker that dies
-- mid-way loses nothing, another (or the same after a restart) picks the row up when its lease ends.
create table webhook_endpoints (
  id                          uuid primary key default gen_random_uuid(),
  workspace_id                uuid not null references workspaces (id) on delete cascade,
  url                         text not null,
  -- 'signal.triggered', 'model.deployed' or '*'.
  events                      jsonb not null,
  enabled                     boolean not null default true,
  -- Why the service disabled it ('gone': a 410; 'failing': 3 days without a successful delivery).
  disabled_reason             text,
  description                 text not null default '',
  secret_sealed               text not null,
  -- After a rotation the previous secret still signs (a second signature) until it expires.
  previous_secret_sealed      text,
  previous_secret_expires_at  timestamptz,
  -- The first failed attempt since the last success: 3 days of failures disable the endpoint.
  failing_since               timestamptz,
  created_at                  timestamptz not null default now(),
  updated_at                  timestamptz not null default now()
);
create index webhook_endpoints_workspace_idx on webhook_endpoints (workspace_id, created_at);

-- Set once an event has been fanned out into deliveries (in the same transaction as the deliveries).
alter table events add column fanned_out_at timestamptz;
create index events_fan_out_idx on events (created_at) where fanned_out_at is null;

create table webhook_deliveries (
  id                uuid primary key default gen_random_uuid(),
  event_id          uuid not null references events (id) on delete cascade,
  endpoint_id       uuid not null references webhook_endpoints (id) on delete cascade,
  workspace_id      uuid not null references workspaces (id) on delete cascade,
  status            text not null default 'pending' check (status in ('pending', 'delivered', 'failed', 'gone')),
  attempts          integer not null default 0,
  -- When the next attempt is due; while an attempt runs, the end of the worker's lease on the row.
  next_attempt_at   timestamptz,
  last_status_code  integer,
  last_duration_ms  integer,
  -- The first 1 KB of the last response body.
  last_response     text,
  last_error        text,
  created_at        timestamptz not null default now(),
  updated_at        timestamptz not null default now(),
  unique (event_id, endpoint_id)
);
create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status = 'pending';
create index webhook_deliveries_endpoint_idx on webhook_deliveries (endpoint_id, created_at desc);
