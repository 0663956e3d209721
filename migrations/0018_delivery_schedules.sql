-- Scheduled deliveries: a scene or a mosaic, run as the schedule's owner (with their data keys) on a
-- cron in a time zone, and sent through the outbox to one webhook endpoint. The schedule is the row
-- itself, claimed as signals are: FOR UPDATE SKIP LOCKED, next_run_at advanced in the claim's
-- transaction, a lease on the store's clock (claimed_until) and a token (claimed_by) so that only the
-- holder of the current claim records the run: two instances never send one run twice.

-- How an endpoint's body is written: 'standard' (the event as JSON, signed per Standard Webhooks) or
-- 'chat' (a Slack- or Teams-style incoming webhook: {"text": …}, a plain-text rendering of the event).
alter table webhook_endpoints add column format text not null default 'standard' check (format in ('standard', 'chat'));

create table delivery_schedules (
  id             uuid primary key default gen_random_uuid(),
  workspace_id   uuid not null references workspaces (id) on delete cascade,
  owner_id       uuid not null references users (id) on delete cascade,
  name           text not null check (length(name) between 1 and 200),
  target_kind    text not null check (target_kind in ('scene', 'mosaic')),
  -- Not a foreign key: a deleted scene or mosaic makes the next run fail visibly, not the schedule vanish.
  target_id      uuid not null,
  endpoint_id    uuid not null references webhook_endpoints (id) on delete cascade,
  cron           text not null,
  timezone       text not null,
  enabled        boolean not null default true,
  next_run_at    timestamptz,
  claimed_until  timestamptz,
  claimed_by     uuid,
  last_run_at    timestamptz,
  last_error     text,
  created_at     timestamptz not null default now(),
  updated_at     timestamptz not null default now()
);
create index delivery_schedules_workspace_idx on delivery_schedules (workspace_id, created_at, id);
create index delivery_schedules_due_idx on delivery_schedules (next_run_at) where enabled;

-- One row per run (scheduled or sent now): what it recorded in the outbox, or why it failed.
create table delivery_schedule_runs (
  id           uuid primary key default gen_random_uuid(),
  schedule_id  uuid not null references delivery_schedules (id) on delete cascade,
  ran_at       timestamptz not null,
  trigger      text not null check (trigger in ('schedule', 'send_now')),
  status       text not null check (status in ('queued', 'error')),
  error        text,
  event_id     uuid references events (id) on delete set null,
  delivery_id  uuid references webhook_deliveries (id) on delete set null
);
create index delivery_schedule_runs_schedule_idx on delivery_schedule_runs (schedule_id, ran_at desc, id);
