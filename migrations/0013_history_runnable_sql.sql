-- A governed run's bound values, and the same statement with each written as a literal of its engine, so
-- the run can be reopened in the SQL editor and run as shown. Both stay null for raw SQL, which runs as
-- it was written, and for governed runs recorded before this migration.
alter table query_history add column if not exists params jsonb;
alter table query_history add column if not exists runnable_sql text;
