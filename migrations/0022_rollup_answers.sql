-- How often each rollup answered a governed query (outcome 'hit', reason '') and how often a query of its
-- node was answered from the source instead (outcome 'miss', reason: the code the answer's
-- metadata.rollup gives for that rollup). Counted in memory by each instance and added here in batches
-- (src/rollups/rollup-answer-counts.ts), so every instance's answers are counted once, with or without Redis.
create table rollup_answers (
  workspace_id  uuid not null references workspaces (id) on delete cascade,
  node          text not null,
  rollup        text not null,
  outcome       text not null check (outcome in ('hit', 'miss')),
  reason        text not null,
  answers       bigint not null check (answers >= 0),
  primary key (workspace_id, node, rollup, outcome, reason)
);
