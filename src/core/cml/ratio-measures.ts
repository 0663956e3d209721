// Ratio measures (`type: ratio`) in pass 2: their `numerator:` and `denominator:` resolved to measures
// of the ratio's own node (as a `number` measure's references are), the check that both are numbers,
// and the unit a ratio takes when it writes none. The division itself is compiled by
// src/core/semantic/measures.ts, after aggregation and safely.
import type { SourceSpan } from '../semantic/model.js';
import { ratioUnit } from '../semantic/units.js';
import type { Name } from './ast.js';
import type { Edge } from './cycles.js';
import type { DiagnosticSink } from './diagnostics.js';
import type { MeasureDraft, NodeDraft } from './node-drafts.js';
import { didYouMean } from './suggest.js';

type Side = 'numerator' | 'denominator';

interface ResolvedSide {
  readonly name: string;
  readonly span: SourceSpan;
}

/** Dimension types whose MIN or MAX is not a number to divide. */
const NOT_NUMBERS: ReadonlySet<string> = new Set(['string', 'boolean', 'date', 'timestamp']);

/**
 * Resolves both sides of a ratio and gives the ratio its `sql` (the two measures, for everything that
 * walks a measure's inputs) and `ratio`. Returns the references, as edges for the cycle check.
 */
export function resolveRatio(measure: MeasureDraft, node: NodeDraft, nodes: ReadonlyMap<string, NodeDraft>, sink: DiagnosticSink): Edge[] {
  const numerator = measure.numeratorRef && resolveSide(measure.numeratorRef, 'numerator', node, nodes, sink);
  const denominator = measure.denominatorRef && resolveSide(measure.denominatorRef, 'denominator', node, nodes, sink);
  const edges = [numerator, denominator].filter((side) => side !== undefined).map((side) => ({ to: side.name, span: side.span }));
  if (!numerator || !denominator) return edges;
  for (const side of [numerator, denominator]) checkNumber(node.measures.get(side.name)!, side, node, sink);
  measure.ratio = { numerator: numerator.name, denominator: denominator.name };
  measure.sql = [
    { kind: 'measure', node: node.name, name: numerator.name },
    { kind: 'text', text: ' / ' },
    { kind: 'measure', node: node.name, name: denominator.name },
  ];
  return edges;
}

/** `name` or `node.name`, where the node must be the ratio's own: a ratio divides after aggregating one node. */
function resolveSide(ref: readonly Name[], side: Side, node: NodeDraft, nodes: ReadonlyMap<string, NodeDraft>, sink: DiagnosticSink): ResolvedSide | undefined {
  const [first, second] = ref as [Name, Name | undefined];
  if (second) {
    const named = nodes.get(first.name);
    if (!named) {
      sink.report('CML301', first.span, `unknown node \`${first.name}\`${didYouMean(first.name, nodes.keys())}`);
      return undefined;
    }
    if (named !== node) {
      sink.report(
        'CML304',
        first.span,
        `a ratio divides measures of its own node \`${node.name}\`, not of \`${named.name}\`; to divide measures of two nodes, write a metric \`expr:\` in a reveal`,
      );
      return undefined;
    }
  }
  const field = second ?? first;
  if (node.measures.has(field.name)) return { name: field.name, span: field.span };
  if (node.dimensions.has(field.name)) {
    sink.report('CML305', field.span, `\`${field.name}\` is a dimension; the \`${side}:\` of a ratio is a measure (aggregate \`${field.name}\` in a measure first)`);
  } else {
    sink.report('CML302', field.span, `\`${node.name}\` has no measure \`${field.name}\`${didYouMean(field.name, node.measures.keys())}`);
  }
  return undefined;
}

/** MIN or MAX of exactly one text, boolean or time dimension is no number to divide. */
function checkNumber(measure: MeasureDraft, side: ResolvedSide, node: NodeDraft, sink: DiagnosticSink): void {
  if (measure.type !== 'min' && measure.type !== 'max') return;
  const chunks = measure.sqlValue?.chunks ?? [];
  const only = chunks[0];
  if (chunks.length !== 1 || only?.kind !== 'ref') return;
  const [first, second] = only.segments;
  if (second && first?.name !== node.name) return;
  const name = (second ?? first)!.name;
  const dimension = node.dimensions.get(name);
  if (dimension?.type && NOT_NUMBERS.has(dimension.type)) {
    sink.report('CML405', side.span, `\`${side.name}\` is the ${measure.type} of the ${dimension.type} dimension \`${name}\`, not a number; a ratio divides numbers`);
  }
}

/**
 * Units of the ratios that write none: `format: percent` makes a percentage, `format: number` a plain
 * number; otherwise the numerator's unit over the denominator's (see ratioUnit). A ratio on a reference
 * cycle (reported already) gets none.
 */
export function deriveRatioUnits(node: NodeDraft, onCycle: ReadonlySet<string>): void {
  const derived = new Set<string>();
  const unitOf = (name: string): string | undefined => {
    const measure = node.measures.get(name);
    if (!measure) return undefined;
    if (measure.type === 'ratio' && measure.ratio && !onCycle.has(name) && !derived.has(name)) {
      derived.add(name);
      if (measure.unit === undefined) measure.unit = ratioUnitOf(measure, unitOf);
    }
    return measure.unit;
  };
  for (const name of node.measures.keys()) unitOf(name);
}

function ratioUnitOf(measure: MeasureDraft, unitOf: (name: string) => string | undefined): string | undefined {
  if (measure.format === 'percent') return 'percent';
  if (measure.format === 'number') return undefined;
  return ratioUnit(unitOf(measure.ratio!.numerator), unitOf(measure.ratio!.denominator));
}
