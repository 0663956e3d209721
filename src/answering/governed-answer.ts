// A governed plan → SQL through the semantic compiler with the asker's data keys → the answer object
// and the facts a language model may reword. Two queries at most: the breakdown (when the plan has
// dimensions) and the headline, which carries the whole-population value and three facts computed
// with it: the latest time of its rows (freshness), whether any row is visible to the asker at all,
// and, for a top-N, whether rows with an empty ranked dimension exist.
//
// Top-N and bottom-N rank members only: the group whose ranked dimension is NULL is not a region or a
// team, so the ranking leaves it out (and says so when there was one); the headline total still counts
// it. A breakdown without a limit keeps it, labelled "(none)".
import type { Principal } from '../identity/principal.js';
import type { ComparedPeriods, GovernedPlan } from '../core/answer/plan.js';
import type { ProseFacts } from '../core/answer/llm-prose.js';
import { answerProse, formatValue, noRowsVisibleProse, NULL_GROUP_LABEL, type Coverage, type ProseFilter } from '../core/answer/prose.js';
import { FieldResolver } from '../core/semantic/fields.js';
import type { RevealQuery } from '../core/semantic/reveal.js';
import type { Reveal } from '../core/semantic/model.js';
import { anyNullOf, latestOf, rowMarkerOf, type DimensionPart } from '../core/semantic/row-facts.js';
import type { LiveModel } from '../modeling/model-service.js';
import type { GovernedQueryService } from '../querying/governed-query-service.js';
import { presentRollup } from '../querying/rollup-presented.js';
import type { RollupReport } from '../querying/rollup-route.js';
import type { Answer, AnswerStatement } from './answer.js';
import { ALL_TIME, AS_OF_NOW } from './answer.js';
import { dataKeyRestrictions, matchedByDescription, noRows, noRowsVisible, nullGroupExcluded, valuesMatchedApproximately, type Assumption } from './assumptions.js';
import { composedFigures, isComposedPlan } from './composed-answer.js';
import { fieldWords } from './field-words.js';
import { freshnessDate } from './freshness.js';

const MAX_ROWS = 1000;
/** Extra outputs of the headline query; never shown to the asker. */
const FRESHNESS = '__freshness';
const VISIBLE = '__visible';
const NULL_GROUP = '__null_group';
const INTERNAL = new Set([FRESHNESS, VISIBLE, NULL_GROUP]);

export interface GovernedRun {
  readonly principal: Principal;
  readonly live: LiveModel;
  readonly plan: GovernedPlan;
  readonly coverage: Coverage;
  /** Decided before the queries ran (the period assumed). */
  readonly assumptions: readonly Assumption[];
  readonly now: Date;
  /** For a plan that compares two periods: both, as the server resolved them. */
  readonly comparison?: ComparedPeriods;
}

/** `sql`: the statements that ran (the headline's, then the breakdown's when it is another query), as compiled with the asker's data keys. */
export async function answerGoverned(governed: GovernedQueryService, run: GovernedRun): Promise<{ result: Omit<Answer, 'usage'>; facts: Omit<ProseFacts, 'question'>; sql: string[] }> {
  const { principal, plan, coverage } = run;
  const { model } = run.live;
  const reveal = model.reveals.get(plan.reveal)!;
  const base = model.nodes.get(reveal.base)!;
  const time = timeField(reveal);
  const filters: RevealQuery['filters'] = [
    ...plan.filters.map((f) => ({ field: f.field, operator: f.operator, value: f.value as string | string[] })),
    ...(time && coverage.kind === 'period'
      ? [
          { field: time, operator: 'onOrAfter', value: coverage.period.start },
          { field: time, operator: 'before', value: coverage.period.end },
        ]
      : []),
  ];
  const ranked = plan.dimensions.length > 0 && plan.sort !== undefined && plan.limit !== undefined;
  const resolver = new FieldResolver(model, base);
  const rankedDimensions = ranked ? plan.dimensions.map((field) => dimensionPart(field, resolver)) : [];
  const marker = rowMarkerOf(VISIBLE, base);
  // Facts of the rows (row-facts.ts): a rollup that can answer the headline gives them from its groups.
  const extras = [...(time ? [latestOf(FRESHNESS, dimensionPart(time, resolver))] : []), ...(marker ? [marker] : []), ...(ranked ? [anyNullOf(NULL_GROUP, rankedDimensions)] : [])];
  const runQuery = async (query: RevealQuery, derived: typeof extras, maxRows: number) => {
    // A question reads with its asker's data keys and answers as of now: never from or into the cache.
    const result = await governed.query({ principal, query: { kind: 'reveal', query, derived, now: run.now }, cache: 'off', surface: 'question_api', origin: 'question', maxRows, live: run.live });
    return { result, rows: [...result.rows] };
  };

  const headline = await runQuery({ reveal: plan.reveal, metrics: plan.metrics, dimensions: [], filters, sorts: [], limit: 1 }, extras, 1);
  const total = headline.rows[0] ?? {};
  // A ratio, shares or a comparison is one query of its own (composed-answer.ts).
  const composed = isComposedPlan(plan);
  const breakdown = plan.dimensions.length && !composed
    ? await runQuery(
        {
          reveal: plan.reveal,
          metrics: plan.metrics,
          dimensions: plan.dimensions,
          // A ranking is of members: rows whose ranked dimension is empty are no group to rank.
          filters: ranked ? [...filters, ...plan.dimensions.map((field) => ({ field, operator: 'notNull' }))] : filters,
          sorts: plan.sort ? [plan.sort] : [],
          limit: plan.limit ?? MAX_ROWS,
        },
        [],
        MAX_ROWS,
      )
    : headline;

  const sql = breakdown === headline ? [headline.result.sql] : [headline.result.sql, breakdown.result.sql];
  const metric = reveal.metrics.get(plan.metrics[0]!)!;
  const visible = !marker || (total[VISIBLE] !== null && total[VISIBLE] !== undefined);
  const restrictions = dataKeyRestrictions(model, headline.result.nodesRead, principal.attributes);
  const columns = breakdown.result.outputColumns.map((c) => c.key).filter((key) => !INTERNAL.has(key));
  const proseFilters: ProseFilter[] = plan.filters.map((f) => ({
    label: words(f.field, model),
    values: typeof f.value === 'string' ? [f.value] : [...f.value],
    ...(f.operator === 'notEquals' || f.operator === 'notIn' ? { negated: true } : {}),
  }));
  const approximate = plan.filters.filter((f) => f.near).flatMap((f) => (typeof f.value === 'string' ? [f.value] : [...f.value]));
  // Which rollup answered each statement, or why none did (absent for a base node without rollups).
  const statements: Array<[AnswerStatement, RollupReport | undefined]> = [['headline', headline.result.rollup], ...(breakdown === headline ? [] : [['breakdown', breakdown.result.rollup] as [AnswerStatement, RollupReport | undefined]])];
  const rollups = statements.flatMap(([statement, report]) => (report ? [{ statement, ...presentRollup(report) }] : []));
  const provenance = (assumptions: readonly Assumption[], more: Answer['provenance']['rollups'] = []): Answer['provenance'] => ({
    source: 'semantic layer',
    reveal: reveal.name,
    reveal_backed: true,
    freshness: freshnessDate(total[FRESHNESS], principal.workspace.timezone),
    confidence: 'high',
    assumptions: [
      ...run.assumptions,
      ...(plan.matchedBy === 'description' ? [matchedByDescription(metric.label)] : []),
      ...(approximate.length > 0 ? [valuesMatchedApproximately(approximate)] : []),
      ...assumptions,
    ],
    ...(rollups.length + more.length > 0 ? { rollups: [...rollups, ...more] } : {}),
  });
  const period = coverage.kind === 'period' ? coverage.period.token : coverage.kind === 'all_time' ? ALL_TIME : AS_OF_NOW;

  if (!visible && restrictions.restricted) {
    // Data keys leave the asker nothing here: a zero (or "no value") would look like a governed fact
    // about every row, so no number is given at all.
    const answer = noRowsVisibleProse({ metricLabel: metric.label, coverage, filters: proseFilters });
    return {
      result: { answer, data: { rows: [], columns, metric: metric.name, period }, provenance: provenance([noRowsVisible(restrictions.missing)]) },
      facts: { template: answer, rows: [] },
      sql,
    };
  }

  if (composed) {
    const figures = await composedFigures(governed, { principal, live: run.live, plan, reveal, timeField: time, coverage, ...(run.comparison ? { comparison: run.comparison } : {}), total: total[metric.name], proseFilters });
    return {
      result: {
        answer: figures.prose,
        data: { rows: figures.rows, columns: figures.columns, metric: figures.metric, ...(figures.value !== undefined ? { value: figures.value } : {}), period },
        provenance: provenance(visible ? [] : [noRows()], figures.rollups.map(({ role, rollup }) => ({ statement: role, ...presentRollup(rollup) }))),
      },
      facts: { template: figures.prose, rows: figures.facts },
      sql: [...sql, ...figures.sql],
    };
  }

  const rows = breakdown.rows.map((row) => Object.fromEntries(Object.entries(row).filter(([key]) => !INTERNAL.has(key))));
  const value = total[metric.name];
  const nullGroupLeftOut = ranked && Number(total[NULL_GROUP]) === 1;
  const dimensions = plan.dimensions.map((field) => words(field, model));
  const groups = plan.dimensions.length ? rows.map((row) => ({ label: plan.dimensions.map((d) => String(row[d] ?? '')).join(' / '), value: row[metric.name] })) : [];
  const others = plan.dimensions.length ? [] : plan.metrics.slice(1).map((name) => ({ label: reveal.metrics.get(name)!.label, unit: reveal.metrics.get(name)!.unit, value: total[name] }));
  const answer = answerProse({
    metricLabel: metric.label,
    unit: metric.unit,
    coverage,
    filters: proseFilters,
    total: value,
    breakdown: groups,
    dimensions,
    ...(ranked ? { ranking: { byMetric: plan.metrics.includes(plan.sort!.field), direction: plan.sort!.direction, limit: plan.limit!, nullGroupLeftOut } } : {}),
    others,
    noRows: !visible,
  });
  const result: Omit<Answer, 'usage'> = {
    answer,
    data: { rows, columns, metric: metric.name, ...(typeof value === 'number' ? { value } : {}), period },
    provenance: provenance([...(nullGroupLeftOut ? [nullGroupExcluded(dimensions)] : []), ...(visible ? [] : [noRows()])]),
  };
  // What a language model may reword: the template and every row, formatted as the template formats them.
  const rowFacts = [
    ...groups.map((group) => `${group.label || NULL_GROUP_LABEL}: ${formatValue(group.value, metric.unit)}`),
    ...others.map((other) => `${other.label}: ${formatValue(other.value, other.unit)}`),
  ];
  return { result, facts: { template: answer, rows: rowFacts }, sql };
}

const words = fieldWords;

/** The reveal's time dimension as a field id relative to its base. */
function timeField(reveal: Reveal): string | undefined {
  if (!reveal.time) return undefined;
  const prefix = reveal.time.role ?? reveal.time.node;
  return prefix === reveal.base ? reveal.time.dimension : `${prefix}.${reveal.time.dimension}`;
}

/** A dimension as a template part, read through its role when the field names one (`ship_to.name`). */
function dimensionPart(field: string, resolver: FieldResolver): DimensionPart {
  const { dimension, instance } = resolver.dimension(field);
  return { kind: 'dimension', node: dimension.node, name: dimension.name, ...(instance !== dimension.node ? { role: instance } : {}) };
}
