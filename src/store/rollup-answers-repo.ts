// Answer counts of rollups (migration 0022), added to in the batches rollup-answer-counts.ts gathers.
import { sql, type Kysely } from 'kysely';
import type { Database, RollupAnswerOutcome } from './schema.js';

export interface RollupAnswerKey {
  readonly workspaceId: string;
  readonly node: string;
  readonly rollup: string;
  readonly outcome: RollupAnswerOutcome;
  /** '' for a hit; a miss's reason code. */
  readonly reason: string;
}

export interface RollupAnswerCount extends RollupAnswerKey {
  readonly answers: number;
}

export function rollupAnswersRepo(db: Kysely<Database>) {
  return {
    /** Adds each count to its row (several instances add to the same rows: never overwritten). */
    async add(counts: readonly RollupAnswerCount[]): Promise<void> {
      // Counts of a workspace deleted since are dropped: kept, they would fail every batch after.
      const ids = [...new Set(counts.map((c) => c.workspaceId))];
      const live = ids.length === 0 ? new Set<string>() : new Set((await db.selectFrom('workspaces').select('id').where('id', 'in', ids).execute()).map((w) => w.id));
      const kept = counts.filter((c) => live.has(c.workspaceId));
      for (let i = 0; i < kept.length; i += 500) {
        const values = kept.slice(i, i + 500).map((c) => ({ workspace_id: c.workspaceId, node: c.node, rollup: c.rollup, outcome: c.outcome, reason: c.reason, answers: c.answers }));
        await db
          .insertInto('rollup_answers')
          .values(values)
          .onConflict((conflict) => conflict.columns(['workspace_id', 'node', 'rollup', 'outcome', 'reason']).doUpdateSet({ answers: sql`rollup_answers.answers + excluded.answers` }))
          .execute();
      }
    },

    async listWorkspace(workspaceId: string): Promise<RollupAnswerCount[]> {
      const rows = await db.selectFrom('rollup_answers').selectAll().where('workspace_id', '=', workspaceId).execute();
      return rows.map((r) => ({ workspaceId: r.workspace_id, node: r.node, rollup: r.rollup, outcome: r.outcome, reason: r.reason, answers: Number(r.answers) }));
    },
  };
}

export type RollupAnswersRepo = ReturnType<typeof rollupAnswersRepo>;
