// Queries with `compare`, `shares` or `per` on the governed path: planned into plain statements
// (core/semantic/composed-plan.ts), each run as a governed request of its own (the same principal and so
// the same data keys, the same cache policy, surface and origin, and the same live model for all), then
// merged (core/semantic/comparison.ts). The answer's SQL is every statement's, in the plan's order,
// separated by `;` and a blank line; it is as fresh as its oldest statement, and from the cache only when
// every statement was.
import { BadRequestError } from '../core/errors.js';
import { mergeComposedRows } from '../core/semantic/comparison.js';
import { wallText } from '../core/semantic/compare-periods.js';
import { planComposedQuery, STATEMENT_ROWS, type ComposedPlan, type ComposedStatement } from '../core/semantic/composed-plan.js';
import type { ColumnInfo } from '../core/warehouse/types.js';
import type { Principal } from '../identity/principal.js';
import type { LiveModel } from '../modeling/model-service.js';
import { compiling } from './governed-compile.js';
import type { RollupReport } from './rollup-route.js';
import type { CacheState, ComparisonSummary, GovernedExplanation, GovernedQueryRequest, GovernedQueryResult, GovernedStatement } from './governed-query.js';

/** `explain`'s request: a governed request without where a run would be recorded. */
type ExplainRequest = Omit<GovernedQueryRequest, 'surface' | 'origin'>;

/** What a composed query needs of the governed path: its clock, live models, and plain runs and explanations. */
export interface ComposedRunner {
  now(): Date;
  live(principal: Principal): Promise<LiveModel>;
  query(request: GovernedQueryRequest): Promise<GovernedQueryResult>;
  explain(request: ExplainRequest): Promise<GovernedExplanation>;
}

export async function runComposedQuery(request: GovernedQueryRequest, runner: ComposedRunner): Promise<GovernedQueryResult> {
  const { live, plan } = await planned(request, runner);
  const results = await Promise.all(plan.statements.map((statement) => runner.query(statementRequest(request, live, statement))));
  results.forEach((result, i) => {
    if (result.truncated) throw tooManyRows(plan.statements[i]!);
  });
  const merged = mergeComposedRows(plan, results.map((result) => result.rows));
  const ranAt = results.map((result) => result.ranAt).reduce((a, b) => (b < a ? b : a));
  const statement = statementOf(plan, live, results);
  return {
    ...statement,
    rows: merged.rows,
    columns: columnInfo(plan, results[0]!.columns),
    rowCount: merged.rows.length,
    // The statements run side by side: the answer took as long as the longest.
    durationMs: Math.max(...results.map((result) => result.durationMs)),
    truncated: merged.truncated,
    ranAt,
    // As fresh as its least fresh statement: one answered from a rollup is as fresh as the rollup.
    provenance: { modelVersion: live.version, sql: statement.sql, cache: cacheOf(results.map((result) => result.provenance.cache)), freshAsOf: results.map((result) => result.provenance.freshAsOf).reduce((a, b) => (b < a ? b : a)) },
  };
}

export async function explainComposedQuery(request: ExplainRequest, runner: ComposedRunner): Promise<GovernedExplanation> {
  const { live, plan } = await planned(request, runner);
  const explanations = await Promise.all(plan.statements.map((statement) => runner.explain(statementRequest(request, live, statement))));
  return { ...statementOf(plan, live, explanations), modelVersion: live.version, engine: explanations[0]!.engine, cache: cacheOf(explanations.map((e) => e.cache)) };
}

async function planned(request: ExplainRequest, runner: ComposedRunner): Promise<{ live: LiveModel; plan: ComposedPlan }> {
  if (request.query.kind !== 'node') throw new Error('only node queries compose');
  const query = request.query.query;
  const live = request.live ?? (await runner.live(request.principal));
  const options = { now: runner.now(), timezone: request.principal.workspace.timezone, maxRows: request.maxRows };
  return { live, plan: compiling(request, live, () => planComposedQuery(live.model, query, options)) };
}

function statementRequest<R extends ExplainRequest>(request: R, live: LiveModel, statement: ComposedStatement): R {
  return { ...request, live, query: { kind: 'node', query: statement.query }, maxRows: STATEMENT_ROWS };
}

function tooManyRows(statement: ComposedStatement): BadRequestError {
  const what = statement.role === 'total' ? 'a share’s total' : `the ${statement.role} period`;
  return new BadRequestError(
    `${what} has more than ${STATEMENT_ROWS} groups, and comparisons and shares need every group to be right; ` +
      'narrow the query (filters, fewer dimensions or a coarser granularity)',
    'too_many_groups',
  );
}

function statementOf(plan: ComposedPlan, live: LiveModel, parts: ReadonlyArray<GovernedStatement & { readonly rollup?: RollupReport }>): GovernedStatement {
  const first = parts[0]!;
  const statementRollups = plan.statements.flatMap((statement, i) => {
    const rollup = parts[i]?.rollup;
    return rollup ? [{ role: statement.role, rollup }] : [];
  });
  return {
    sql: parts.map((part) => part.sql).join(';\n\n'),
    params: first.params,
    node: first.node,
    connection: first.connection,
    outputColumns: plan.columns,
    nodesRead: [...new Set(parts.flatMap((part) => part.nodesRead))],
    ...(plan.comparison ? { comparison: comparisonSummary(plan) } : {}),
    ...(statementRollups.length > 0 ? { statementRollups } : {}),
  };
}

function comparisonSummary(plan: ComposedPlan): ComparisonSummary {
  const { dimension, to, current, comparison } = plan.comparison!;
  return {
    dimension,
    to,
    range: [wallText(current.from), wallText(current.to)],
    comparisonRange: [wallText(comparison.from), wallText(comparison.to)],
    partial: current.to.getTime() > plan.nowWall.getTime(),
  };
}

/** A hit when every statement was one; a miss when any was looked up and missed; else the policy's (bypass, off). */
function cacheOf(states: readonly CacheState[]): CacheState {
  if (states.every((state) => state === 'hit')) return 'hit';
  return states.includes('miss') || states.includes('hit') ? 'miss' : states[0]!;
}

/** The warehouse's columns for the current statement's keys; computed columns are doubles, `partial` a boolean. */
function columnInfo(plan: ComposedPlan, current: readonly ColumnInfo[]): ColumnInfo[] {
  return plan.columns.map((column) => current.find((c) => c.name === column.key) ?? { name: column.key, type: column.kind === 'partial' ? 'BOOLEAN' : 'DOUBLE' });
}
