-- Rollup builds as durable jobs: one row per rollup table and partition ('' for a table built whole),
-- planned at each deploy (src/rollups/rollup-plan.ts) and claimed as signals and scheduled deliveries
-- are: FOR UPDATE SKIP LOCKED, a lease on the store's clock (claimed_until) and a token (claimed_by), so
-- that only the holder of the current claim records the build and two instances never build one row
-- at once. A row whose definition leaves the model is deleted (its table is dropped from the rollup file).
create table rollup_builds (
  workspace_id     uuid not null references workspaces (id) on delete cascade,
  -- The stored table (src/core/semantic/rollup-table.ts): a changed definition is a new name, a new row.
  table_name       text not null check (length(table_name) between 1 and 300),
  node             text not null,
  rollup           text not null,
  -- Wall times of the rollup's zone, half-open [start, end), as in rollup_partitions; '' for a whole table.
  partition_start  text not null,
  partition_end    text not null,
  state            text not null default 'pending' check (state in ('pending', 'building', 'ready', 'failed')),
  -- When the row is next built; null: not until something changes (a deploy, a new partition).
  next_run_at      timestamptz,
  claimed_until    timestamptz,
  claimed_by       uuid,
  -- Failed builds in a row (reset by a success): the retry waits longer after each.
  attempts         integer not null default 0 check (attempts >= 0),
  last_error       text,
  last_built_at    timestamptz,
  row_count        bigint check (row_count >= 0),
  updated_at       timestamptz not null default now(),
  primary key (workspace_id, table_name, partition_start)
);
create index rollup_builds_due_idx on rollup_builds (next_run_at);
