// Composed queries (compare, shares, per) on a real engine, as the governed path answers them: the plan's
// statements compiled and run with the same attributes, their rows merged. The governed path itself (its
// cache, history and surfaces) is tested through C, in test/structured-comparisons.test.ts.
import { compileQuery } from '../../src/core/semantic/compile.js';
import { mergeComposedRows } from '../../src/core/semantic/comparison.js';
import { planComposedQuery } from '../../src/core/semantic/composed-plan.js';
import { semanticQuerySchema, type SemanticQueryInput } from '../../src/core/semantic/query.js';
import { DIALECTS } from '../../src/core/sql/dialects.js';
import type { WarehouseRow } from '../../src/core/warehouse/types.js';
import type { demoEngines, Engine } from './demo-engines.js';

export type Engines = ReturnType<typeof demoEngines>;

/** The rows of a (plain) query on `engine`. */
export async function runPlain(engines: Engines, engine: Engine, input: SemanticQueryInput, now: Date, attributes: Record<string, string> = { region: '*' }): Promise<WarehouseRow[]> {
  const { warehouse, model } = engines.get(engine)!;
  const compiled = compileQuery(model, semanticQuerySchema.parse(input), { dialect: DIALECTS[engine], attributes, now });
  return [...(await warehouse.run(compiled.sql, compiled.params, { maxRows: 100_000, timeoutMs: 30_000 })).rows];
}

/** The answer of a composed query on `engine`: its statements run one by one, then merged. */
export async function runComposed(engines: Engines, engine: Engine, input: SemanticQueryInput, now: Date, attributes: Record<string, string> = { region: '*' }): Promise<WarehouseRow[]> {
  const { warehouse, model } = engines.get(engine)!;
  const plan = planComposedQuery(model, semanticQuerySchema.parse(input), { now });
  const results: WarehouseRow[][] = [];
  for (const statement of plan.statements) {
    const compiled = compileQuery(model, statement.query, { dialect: DIALECTS[engine], attributes, now });
    const run = await warehouse.run(compiled.sql, compiled.params, { maxRows: 100_000, timeoutMs: 30_000 });
    results.push([...run.rows]);
  }
  return mergeComposedRows(plan, results).rows;
}
