// The seam between the governed query path and rollups: a node query answered from the rollup the
// matcher picks, when one can answer it and its table has been built; otherwise the reason, so the
// caller answers from the source. The governed path calls it once the build records show the partitions
// built cover what the query reads (src/querying/rollup-route.ts).
import { matchRollup, type RollupMatch } from '../core/semantic/rollup-match.js';
import { rollupQueryOf } from '../core/semantic/rollup-query.js';
import { rollupAnswerStatement } from '../core/semantic/rollup-answer-sql.js';
import { rollupTableName } from '../core/semantic/rollup-table.js';
import type { CompileOptions, OutputColumn } from '../core/semantic/compile.js';
import type { SemanticModel } from '../core/semantic/model.js';
import type { SemanticQuery } from '../core/semantic/query.js';
import type { Rollup } from '../core/semantic/rollup-model.js';
import type { RunResult, WarehouseEngine } from '../core/warehouse/types.js';
import type { RollupStorage } from './rollup-storage.js';

export interface RollupAnswerInput {
  readonly model: SemanticModel;
  readonly query: SemanticQuery;
  /** The engine of the node's warehouse (answers take the types its own answers have). */
  readonly sourceEngine: WarehouseEngine;
  /** The caller's attributes, for data keys. */
  readonly attributes: Readonly<Record<string, string>>;
  readonly now: Date;
  readonly timezone?: string;
  /** Where the rollups of the node's connection are stored: the statement is written for its engine. */
  readonly store: RollupStorage;
  readonly maxRows: number;
  /** Extra outputs after the measures (a reveal's metrics, facts of the rows; see rollup-answer-sql.ts). */
  readonly derived?: CompileOptions['derived'];
}

export type RollupAnswer =
  | { readonly answered: true; readonly rollup: Rollup; readonly table: string; readonly sql: string; readonly params: readonly unknown[]; readonly outputColumns: readonly OutputColumn[]; readonly result: RunResult; readonly match: RollupMatch }
  | { readonly answered: false; readonly reason: 'composed' | 'no_rollup' | 'not_built'; readonly match?: RollupMatch };

export async function answerFromRollup(input: RollupAnswerInput): Promise<RollupAnswer> {
  const { model, query } = input;
  // Comparisons, shares and ratios are planned as several queries (composed-plan.ts): each is matched on its own.
  if (query.compare || query.shares?.length || query.per?.length) return { answered: false, reason: 'composed' };
  const node = model.nodes.get(query.node);
  if (!node) return { answered: false, reason: 'no_rollup' };
  const options = { attributes: input.attributes, now: input.now, ...(input.timezone ? { timezone: input.timezone } : {}), ...(input.derived ? { derived: input.derived } : {}) };
  const match = matchRollup(node.rollups, rollupQueryOf(model, query, options));
  if (!match.rollup) return { answered: false, reason: 'no_rollup', match };
  const table = rollupTableName(model, match.rollup);
  const columnTypes = await input.store.columnTypes(table);
  if (!columnTypes) return { answered: false, reason: 'not_built', match };
  const stored = { name: input.store.stored(table), ...(input.store.schema ? { schema: input.store.schema } : {}), columnTypes };
  const statement = rollupAnswerStatement(model, match.rollup, stored, query, { ...options, sourceEngine: input.sourceEngine, storeEngine: input.store.engine });
  const result = await input.store.query(statement.sql, statement.params, input.maxRows);
  return { answered: true, rollup: match.rollup, table, sql: statement.sql, params: statement.params, outputColumns: statement.columns, result, match };
}
