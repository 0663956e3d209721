// Row types of the metadata store's rollup build jobs (migration 0021) and answer counts (0022). schema.ts re-exports them.
import type { ColumnType } from 'kysely';
import type { UpdatedAt } from './schema-columns.js';

export const ROLLUP_BUILD_STATES = ['pending', 'building', 'ready', 'failed'] as const;
export type RollupBuildState = (typeof ROLLUP_BUILD_STATES)[number];

type Defaulted<T> = ColumnType<T, T | undefined, T>;

/** One planned build of a rollup table or partition ('' start and end for a table built whole). */
export interface RollupBuildsTable {
  workspace_id: string;
  table_name: string;
  node: string;
  rollup: string;
  partition_start: string;
  partition_end: string;
  state: Defaulted<RollupBuildState>;
  next_run_at: Date | null;
  claimed_until: Defaulted<Date | null>;
  claimed_by: Defaulted<string | null>;
  attempts: Defaulted<number>;
  last_error: Defaulted<string | null>;
  last_built_at: Defaulted<Date | null>;
  row_count: Defaulted<number | null>;
  updated_at: UpdatedAt;
}

export const ROLLUP_ANSWER_OUTCOMES = ['hit', 'miss'] as const;
export type RollupAnswerOutcome = (typeof ROLLUP_ANSWER_OUTCOMES)[number];

/** Governed answers a rollup gave (hit, reason '') or a query of its node read the source instead (miss, by reason code). */
export interface RollupAnswersTable {
  workspace_id: string;
  node: string;
  rollup: string;
  outcome: RollupAnswerOutcome;
  reason: string;
  answers: number;
}
