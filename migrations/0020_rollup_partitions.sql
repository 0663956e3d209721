-- What has been built of each rollup: one row per stored table and partition, written by each build of
-- it, for freshness (how far the source's rows reached, when it was built) and provenance (which table,
-- how many rows). The rows themselves live in the workspace's rollup file
-- (<data dir>/rollups/<workspace id>/rollups.duckdb), one table per rollup definition: a changed
-- definition is a new table name, so its old rows are never read as its new ones.
create table rollup_partitions (
  workspace_id     uuid not null references workspaces (id) on delete cascade,
  -- The stored table: node, rollup name and a hash of the definition (src/core/semantic/rollup-table.ts).
  table_name       text not null check (length(table_name) between 1 and 300),
  node             text not null,
  rollup           text not null,
  -- Wall times of the rollup's zone as `YYYY-MM-DD HH:mm:ss.SSS`, half-open [start, end): zone-less
  -- times, kept as text so no reader converts them. Both '' for a table built whole.
  partition_start  text not null,
  partition_end    text not null,
  row_count        bigint not null check (row_count >= 0),
  built_at         timestamptz not null,
  -- The latest time value among the source rows the build read, as the source holds it; null when it read none.
  source_max_time  text,
  duration_ms      integer not null check (duration_ms >= 0),
  primary key (workspace_id, table_name, partition_start)
);
