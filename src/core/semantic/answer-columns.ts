// Whether a query, plain or with `compare`, `shares` or `per`, compiles on a model, and the columns its
// answer has: the one check stored definitions (scenes, signals) are saved and re-checked with. A
// composed query is planned and each of its statements compiled, as the governed path runs them, so a
// definition that passes runs; its columns let a definition name one of them (a visualization's field,
// the column a signal watches).
import { compileQuery, type CompileOptions } from './compile.js';
import { isComposedQuery, planComposedQuery, type ResultColumn } from './composed-plan.js';
import type { SemanticModel } from './model.js';
import type { SemanticQuery } from './query.js';

/** The answer's columns, in order; throws the planner's or compiler's error when the query does not compile. */
export function answerColumnsOf(model: SemanticModel, query: SemanticQuery, options: CompileOptions): readonly ResultColumn[] {
  if (!isComposedQuery(query)) return compileQuery(model, query, options).columns;
  const plan = planComposedQuery(model, query, { now: options.now, ...(options.timezone ? { timezone: options.timezone } : {}) });
  for (const statement of plan.statements) compileQuery(model, statement.query, options);
  return plan.columns;
}
