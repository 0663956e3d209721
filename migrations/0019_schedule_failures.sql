-- A delivery schedule whose runs keep failing stops, as a signal does, instead of failing on every
-- tick: failed_runs counts the runs in a row that sent nothing (reset by one that queues its delivery);
-- at the limit the schedule is disabled with stopped_reason saying why, until it is edited or resumed.
alter table delivery_schedules add column failed_runs integer not null default 0;
alter table delivery_schedules add column stopped_reason text;

-- The retention job ages schedule runs by when they ran (SVC_RETENTION_SCHEDULE_RUNS_DAYS).
create index delivery_schedule_runs_ran_at_idx on delivery_schedule_runs (ran_at);
