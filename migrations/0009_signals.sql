-- Signals: alerts on one value (a scene's measure or a node's measure over a period), evaluated on a
-- schedule with the data keys of their owner. The schedule is the row itself: a due signal is claimed
-- with FOR UPDATE SKIP LOCKED and its next_run_at advanced in the claim's transaction, so several
-- instances never evaluate the same run; claimed_until covers a crash after the claim.
create table signals (
  id                uuid primary key default gen_random_uuid(),
  workspace_id      uuid not null references workspaces (id) on delete cascade,
  vault_id          uuid not null references vaults (id) on delete cascade,
  owner_id          uuid not null references users (id) on delete cascade,
  name              text not null check (length(name) between 1 and 200),
  -- {"scene_id": …} or {"node", "measure", "time_field"?, "period"?, "filters"?}
  watch             jsonb not null check (jsonb_typeof(watch) = 'object'),
  condition         text not null check (condition in ('less_than', 'greater_than', 'equals', 'not_equals',
                      'increases_by_percent', 'decreases_by_percent', 'changes_by_percent')),
  threshold         double precision not null,
  cron              text,
  timezone          text,
  interval_seconds  integer check (interval_seconds >= 60),
  enabled           boolean not null default true,
  state             text not null default 'ok' check (state in ('ok', 'triggered', 'error')),
  -- Whether the condition held at the last evaluation that read a value: a signal fires when it starts
  -- to hold, and an error in between neither fires nor re-arms it.
  holding           boolean not null default false,
  last_value        double precision,
  last_evaluated_at timestamptz,
  last_error        text,
  next_run_at       timestamptz,
  claimed_until     timestamptz,
  created_at        timestamptz not null default now(),
  updated_at        timestamptz not null default now(),
  check ((cron is null) <> (interval_seconds is null))
);
create index signals_workspace_idx on signals (workspace_id, created_at, id);
create index signals_due_idx on signals (next_run_at) where enabled;

create table signal_evaluations (
  id            uuid primary key default gen_random_uuid(),
  signal_id     uuid not null references signals (id) on delete cascade,
  evaluated_at  timestamptz not null default now(),
  value         double precision,
  previous      double precision,
  holds         boolean,
  state         text not null check (state in ('ok', 'triggered', 'error')),
  fired         boolean not null default false,
  error         text
);
create index signal_evaluations_signal_idx on signal_evaluations (signal_id, evaluated_at desc, id);
