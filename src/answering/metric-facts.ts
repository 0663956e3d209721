// What the answer pipeline needs to know about a reveal's metrics beyond their words: whether one
// counts things (trips, senders) or measures an amount, which node measure it reads (comparisons,
// shares and ratios are asked of the node, docs/queries.md), and which metric the model declares for
// the ratio of two others ("fare per trip" for fare revenue over trips).
import type { Measure, Metric, Reveal, SemanticModel } from '../core/semantic/model.js';

/** Units that say a metric counts things, whatever measure it reads. */
export const COUNT_UNITS: ReadonlySet<string> = new Set(['count', 'number', 'integer']);

function measureOf(model: SemanticModel, metric: Metric): Measure | undefined {
  return metric.measure ? model.nodes.get(metric.measure.node)?.measures.get(metric.measure.name) : undefined;
}

/** Whether the metric counts rows or distinct things, rather than measuring an amount or a rate. */
export function countsThings(model: SemanticModel, metric: Metric): boolean {
  const measure = measureOf(model, metric);
  if (measure) return measure.type === 'count' || measure.type === 'count_distinct';
  return COUNT_UNITS.has(metric.unit.toLowerCase());
}

/**
 * The measure a node query of the reveal's base names for `metric` (`total_fares`, `start_station.docks`),
 * or undefined when the metric is an expression over others, which a node query cannot name.
 */
export function nodeMeasureId(reveal: Reveal, metric: Metric): string | undefined {
  if (!metric.measure) return undefined;
  const { node, name, role } = metric.measure;
  const instance = role ?? node;
  return instance === reveal.base ? name : `${instance}.${name}`;
}

/** The metric of `reveal` whose measure is the ratio of the measures of `numerator` over `denominator`, if the model declares one. */
export function declaredRatio(model: SemanticModel, reveal: Reveal, numerator: Metric, denominator: Metric): Metric | undefined {
  const top = numerator.measure;
  const bottom = denominator.measure;
  if (!top || !bottom || top.node !== bottom.node || (top.role ?? '') !== (bottom.role ?? '')) return undefined;
  return [...reveal.metrics.values()].find((metric) => {
    const measure = measureOf(model, metric);
    return (
      metric.measure?.node === top.node &&
      (metric.measure.role ?? '') === (top.role ?? '') &&
      measure?.ratio?.numerator === top.name &&
      measure.ratio.denominator === bottom.name
    );
  });
}

const ADDITIVE = new Set(['count', 'count_distinct', 'sum']);

/**
 * Whether the metric adds up over rows (a count, a count of distinct things, a sum): what a share is a
 * part of, and what a ratio may divide. An average or a ratio of its own would be divided twice.
 */
export function addsUp(model: SemanticModel, metric: Metric): boolean {
  const measure = measureOf(model, metric);
  return measure !== undefined && !measure.ratio && ADDITIVE.has(measure.type);
}
