// A reveal query with `compare`, `shares` or `per` (the CML builder's), asked as a query of the reveal's
// base node: each metric is the measure it is defined by, and the answer's keys are named back after
// the metrics (`revenue.comparison`, not `completed_revenue.comparison`). Only node queries compose
// (composed-plan.ts); a metric computed from other metrics (`expr`) has no measure of its own to
// compare or share, so it is refused with the metrics that can be.
import { BadRequestError } from '../errors.js';
import type { ResultColumn } from './composed-plan.js';
import type { Reveal, SemanticModel } from './model.js';
import type { CompareSpec, PerSpec, SemanticQuery, ShareSpec } from './query.js';
import { findReveal, type RevealQuery } from './reveal.js';

export interface ComposedRevealQuery extends RevealQuery {
  readonly compare?: CompareSpec | undefined;
  /** Shares and ratios of metrics, by metric name. */
  readonly shares?: readonly ShareSpec[] | undefined;
  readonly per?: readonly PerSpec[] | undefined;
}

export interface RevealAsNode {
  readonly reveal: Reveal;
  readonly query: SemanticQuery;
  /** An answer's column named after the metrics. */
  column(column: ResultColumn): ResultColumn;
  /** An answer's row keyed by the metrics' names. */
  row(row: Readonly<Record<string, unknown>>): Record<string, unknown>;
}

/** True when the reveal query needs the composed path (a comparison, a share or a ratio). */
export function isComposedRevealQuery(query: ComposedRevealQuery): boolean {
  return query.compare !== undefined || (query.shares?.length ?? 0) > 0 || (query.per?.length ?? 0) > 0;
}

/** The computed keys a measure's name starts: `m.comparison`, `m.change`, `m.change_percent`, `m.share`. */
const SUFFIXES = ['', '.comparison', '.change', '.change_percent', '.share'];

export function revealAsNodeQuery(model: SemanticModel, query: ComposedRevealQuery): RevealAsNode {
  const reveal = findReveal(model, query.reveal, query.domain);
  const measureOf = new Map<string, string>();
  const metricOf = new Map<string, string>();
  const measure = (name: string): string => {
    const known = measureOf.get(name);
    if (known) return known;
    const metric = reveal.metrics.get(name);
    if (!metric) throw new BadRequestError(`Unknown metric "${name}" in reveal ${reveal.name}; metrics: ${[...reveal.metrics.keys()].join(', ')}`, 'unknown_field');
    if (!metric.measure) {
      const plain = [...reveal.metrics.values()].filter((m) => m.measure).map((m) => m.name);
      throw new BadRequestError(
        `Metric ${name} is computed from other metrics: comparisons, percents of total and ratios take metrics defined by one measure (${plain.join(', ')})`,
        'invalid_compare',
      );
    }
    const { node, name: field, role } = metric.measure;
    // A measure of the base itself, or one read through the join (or role) that reaches its node.
    const id = node === reveal.base && role === undefined ? field : `${role ?? node}.${field}`;
    const twin = metricOf.get(id);
    if (twin) throw new BadRequestError(`Metrics ${twin} and ${name} are the same measure (${id}): ask for one of them`, 'duplicate_field');
    measureOf.set(name, id);
    metricOf.set(id, name);
    return id;
  };
  const measures = query.metrics.map(measure);
  const shares = query.shares?.map((s) => ({ ...s, measure: measure(s.measure) }));
  const per = query.per?.map((p) => ({ measure: measure(p.measure), by: measure(p.by) }));

  // Every key the answer may hold, by metric name and by measure id, for sorts and for the answer.
  const toMeasureKey = new Map<string, string>();
  for (const [name, id] of measureOf) for (const suffix of SUFFIXES) toMeasureKey.set(`${name}${suffix}`, `${id}${suffix}`);
  for (const p of query.per ?? []) toMeasureKey.set(`${p.measure}.per.${p.by}`, `${measureOf.get(p.measure)}.per.${measureOf.get(p.by)}`);
  const toMetricKey = new Map([...toMeasureKey].map(([metricKey, measureKey]) => [measureKey, metricKey]));
  const renamed = (key: string) => toMetricKey.get(key) ?? key;
  // Descriptions name the keys ("order_count − order_count.comparison"): each is renamed in one pass,
  // longest first, so that a metric named like another measure is never renamed twice.
  const keys = [...toMetricKey.keys()].sort((a, b) => b.length - a.length).map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const inText = new RegExp(`(?<![\\w.])(${keys.join('|')})(?![\\w])`, 'g');
  const describe = (text: string) => (keys.length ? text.replace(inText, (key) => renamed(key)) : text);

  const nodeQuery: SemanticQuery = {
    node: reveal.base,
    dimensions: [...query.dimensions],
    measures,
    filters: query.filters,
    sorts: query.sorts.map((s) => ({ ...s, field: toMeasureKey.get(s.field) ?? s.field })),
    ...(query.limit !== undefined ? { limit: query.limit } : {}),
    ...(query.timezone !== undefined ? { timezone: query.timezone } : {}),
    ...(query.compare ? { compare: query.compare } : {}),
    ...(shares ? { shares } : {}),
    ...(per ? { per } : {}),
  };
  return {
    reveal,
    query: nodeQuery,
    column: (column) => ({
      ...column,
      key: renamed(column.key),
      ...(column.measure !== undefined ? { measure: metricOf.get(column.measure) ?? column.measure } : {}),
      ...(column.by !== undefined ? { by: metricOf.get(column.by) ?? column.by } : {}),
      ...(column.description !== undefined ? { description: describe(column.description) } : {}),
    }),
    row: (row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [renamed(key), value])),
  };
}
