-- Retention: old rows are deleted in small batches, oldest first, by a job that one instance runs at a
-- time. Each table is pruned by its own time, through an index on it.
create index events_created_idx on events (created_at);
create index webhook_deliveries_settled_idx on webhook_deliveries (updated_at) where status <> 'pending';
create index signal_evaluations_evaluated_idx on signal_evaluations (evaluated_at);
create index query_history_created_idx on query_history (created_at);

-- Jobs the store runs once across every instance (like signals: claimed with FOR UPDATE SKIP LOCKED, then
-- held by a lease on the store's clock). One row per job, created by the first instance that runs it.
create table scheduled_jobs (
  name              text primary key,
  next_run_at       timestamptz not null,
  claimed_until     timestamptz,
  -- Names the claim: only its holder records the run's end (a holder whose lease ran out records nothing).
  claimed_by        uuid,
  last_started_at   timestamptz,
  last_finished_at  timestamptz,
  last_error        text
);
