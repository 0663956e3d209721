// Second pass over a node, once every node is declared: resolve the `${...}` references of its SQL into
// template parts, check what each place may reference, and find cycles and type mistakes. What a place
// may reference follows from when its SQL runs:
// - row level (dimension sql, sql of an aggregating measure, filter): `${TABLE}` and dimensions of the
//   node itself; a measure there would nest aggregates;
// - after aggregation (a `number` measure, and a ratio's numerator and denominator): measures of the
//   node itself;
// - a join condition: `${TABLE}` and dimensions of the two nodes it joins.
import type { SourceSpan, SqlPart, SqlTemplate } from '../semantic/model.js';
import type { Name, SqlReference, SqlValue } from './ast.js';
import { reportCycles, type Edge } from './cycles.js';
import type { DiagnosticSink } from './diagnostics.js';
import type { NodeDraft } from './node-drafts.js';
import { deriveRatioUnits, resolveRatio } from './ratio-measures.js';
import { didYouMean } from './suggest.js';

type Scope =
  | { readonly kind: 'row' | 'aggregate'; readonly node: NodeDraft }
  /** `alias` is the role name of `join ship_to: regions` (else the joined node's own name). */
  | { readonly kind: 'join'; readonly node: NodeDraft; readonly to: NodeDraft; readonly alias: string };

interface ResolvedRef {
  readonly part: SqlPart;
  readonly span: SourceSpan;
}

interface Resolved {
  readonly template: SqlTemplate;
  readonly refs: readonly ResolvedRef[];
}

const NON_NUMERIC = new Set(['string', 'boolean']);

export function resolveNode(node: NodeDraft, nodes: ReadonlyMap<string, NodeDraft>, sink: DiagnosticSink): void {
  resolveSource(node, sink);

  const dimensionEdges = new Map<string, Edge[]>();
  for (const [name, dimension] of node.dimensions) {
    if (!dimension.sqlValue) {
      dimension.sql = [{ kind: 'table', node: node.name }, { kind: 'text', text: `.${name}` }];
      dimensionEdges.set(name, []);
      continue;
    }
    const resolved = resolveSql(dimension.sqlValue, { kind: 'row', node }, nodes, sink);
    dimension.sql = resolved.template;
    dimensionEdges.set(name, edgesTo('dimension', node, resolved.refs));
  }

  const measureEdges = new Map<string, Edge[]>();
  for (const [name, measure] of node.measures) {
    measureEdges.set(name, []);
    if (measure.type === 'ratio') measureEdges.set(name, resolveRatio(measure, node, nodes, sink));
    if (measure.sqlValue) {
      const resolved = resolveSql(measure.sqlValue, { kind: measure.type === 'number' ? 'aggregate' : 'row', node }, nodes, sink);
      measure.sql = resolved.template;
      measureEdges.set(name, edgesTo('measure', node, resolved.refs));
      if (measure.type === 'sum' || measure.type === 'avg') checkNumericAggregate(measure.type, measure.sqlValue, resolved.refs, node, sink);
    }
    if (measure.filterValue) measure.filter = resolveSql(measure.filterValue, { kind: 'row', node }, nodes, sink).template;
  }

  reportCycles(dimensionEdges, 'dimension', sink);
  deriveRatioUnits(node, reportCycles(measureEdges, 'measure', sink));
  resolveJoins(node, nodes, sink);
  resolveDataKeys(node, sink);
}

/** A node's own `sql:` goes to the warehouse as written: it is the source, there is nothing to resolve. */
function resolveSource(node: NodeDraft, sink: DiagnosticSink): void {
  if (!node.sourceValue) return;
  let sql = '';
  for (const chunk of node.sourceValue.chunks) {
    if (chunk.kind === 'text') sql += chunk.text;
    else sink.report('CML304', chunk.span, "a node's `sql:` is sent to the warehouse as written; `${...}` references are not allowed in it");
  }
  node.source = { kind: 'sql', sql };
}

function resolveJoins(node: NodeDraft, nodes: ReadonlyMap<string, NodeDraft>, sink: DiagnosticSink): void {
  for (const join of node.joins) {
    const target = join.target;
    const alias = join.alias.name;
    const to = nodes.get(target.name);
    if (!to) {
      sink.report('CML301', target.span, `\`${node.name}\` joins unknown node \`${target.name}\`${didYouMean(target.name, nodes.keys())}`);
      continue;
    }
    if (alias !== target.name && (nodes.has(alias) || alias === 'TABLE')) {
      const why = alias === 'TABLE' ? '`TABLE` is reserved for the source of a node' : `\`${alias}\` is the name of another node, so \`${alias}.x\` would mean two things`;
      sink.report('CML206', join.alias.span, `the role \`${alias}\` of join \`${alias}: ${target.name}\` cannot be used: ${why}; pick another role name`);
      continue;
    }
    if (to === node) {
      sink.report('CML503', target.span, `node \`${node.name}\` joins itself; declare a second node over the same table to join a table to itself`);
      continue;
    }
    if (node.connection && to.connection && node.connection !== to.connection) {
      sink.report('CML502', target.span, `\`${node.name}\` reads connection \`${node.connection}\` but \`${to.name}\` reads \`${to.connection}\`; a join stays within one warehouse`);
      continue;
    }
    join.connects = true;
    if (!join.onValue) continue;
    const resolved = resolveSql(join.onValue, { kind: 'join', node, to, alias }, nodes, sink);
    join.on = resolved.template;
    const touchesTarget = resolved.refs.some(({ part }) => (part.kind === 'dimension' || part.kind === 'table') && part.node === to.name);
    if (!touchesTarget) sink.report('CML501', join.onValue.span, `the condition of join \`${alias}\` never references \`${alias}\` (write it as \`\${${node.name}.x} = \${${alias}.y}\`)`);
  }
}

function resolveDataKeys(node: NodeDraft, sink: DiagnosticSink): void {
  for (const key of node.dataKeys) {
    const dimension = key.dimension;
    if (!dimension || node.dimensions.has(dimension.name)) continue;
    if (node.measures.has(dimension.name)) sink.report('CML305', dimension.span, `\`${dimension.name}\` is a measure; a data key filters rows by a dimension`);
    else sink.report('CML302', dimension.span, `node \`${node.name}\` has no dimension \`${dimension.name}\`${didYouMean(dimension.name, node.dimensions.keys())}`);
  }
}

/** `sum`/`avg` of exactly one string or boolean dimension cannot mean anything. */
function checkNumericAggregate(type: string, value: SqlValue, refs: readonly ResolvedRef[], node: NodeDraft, sink: DiagnosticSink): void {
  const only = refs[0];
  if (value.chunks.length !== 1 || refs.length !== 1 || only?.part.kind !== 'dimension') return;
  const dimension = node.dimensions.get(only.part.name);
  if (dimension?.type && NON_NUMERIC.has(dimension.type)) {
    sink.report('CML401', only.span, `a \`${type}\` measure needs a number, but \`${only.part.name}\` is a ${dimension.type} dimension`);
  }
}

function edgesTo(kind: 'dimension' | 'measure', node: NodeDraft, refs: readonly ResolvedRef[]): Edge[] {
  return refs.filter(({ part }) => part.kind === kind && part.node === node.name).map(({ part, span }) => ({ to: (part as { name: string }).name, span }));
}

function resolveSql(value: SqlValue, scope: Scope, nodes: ReadonlyMap<string, NodeDraft>, sink: DiagnosticSink): Resolved {
  const template: SqlPart[] = [];
  const refs: ResolvedRef[] = [];
  for (const chunk of value.chunks) {
    if (chunk.kind === 'text') {
      template.push({ kind: 'text', text: chunk.text });
      continue;
    }
    const part = resolveReference(chunk, scope, nodes, sink);
    if (!part) continue;
    template.push(part);
    refs.push({ part, span: chunk.span });
  }
  return { template, refs };
}

function resolveReference(ref: SqlReference, scope: Scope, nodes: ReadonlyMap<string, NodeDraft>, sink: DiagnosticSink): SqlPart | undefined {
  const [first, second] = ref.segments as [Name, Name | undefined];
  let node = scope.node;
  let field = first;
  if (second) {
    // In a role join's condition, the role names the joined node: `${ship_to.id}`.
    const named = scope.kind === 'join' && first.name === scope.alias ? scope.to : nodes.get(first.name);
    if (!named) {
      if (scope.kind === 'join' && scope.alias !== scope.to.name) {
        const names = [scope.node.name, scope.alias];
        sink.report('CML307', first.span, `\`${first.name}\` is neither the role \`${scope.alias}\` of this join nor a node; the condition names \`${scope.node.name}\` and \`${scope.alias}\`${didYouMean(first.name, names)}`);
      } else sink.report('CML301', first.span, `unknown node \`${first.name}\`${didYouMean(first.name, nodes.keys())}`);
      return undefined;
    }
    const allowed = named === scope.node || (scope.kind === 'join' && named === scope.to);
    if (!allowed) {
      const message =
        scope.kind === 'join'
          ? `a join condition can only reference \`${scope.node.name}\` and \`${scope.alias}\`, not \`${named.name}\``
          : `this SQL can only reference its own node \`${scope.node.name}\`; combine \`${named.name}\` through a join and a reveal`;
      sink.report('CML304', ref.span, message);
      return undefined;
    }
    node = named;
    field = second;
  }

  if (field.name === 'TABLE') {
    if (scope.kind !== 'aggregate') return { kind: 'table', node: node.name };
    sink.report('CML304', field.span, '`${TABLE}` is row-level; a `number` measure combines other measures of its node');
    return undefined;
  }
  const isDimension = node.dimensions.has(field.name);
  const isMeasure = node.measures.has(field.name);
  if (scope.kind === 'aggregate') {
    if (isMeasure) return { kind: 'measure', node: node.name, name: field.name };
    if (isDimension) {
      sink.report('CML304', field.span, `\`${field.name}\` is a dimension; a \`number\` measure combines measures (aggregate \`${field.name}\` in a measure first)`);
      return undefined;
    }
  } else {
    if (isDimension) return { kind: 'dimension', node: node.name, name: field.name };
    if (isMeasure) {
      const where = scope.kind === 'join' ? 'a join condition' : 'this SQL';
      sink.report('CML304', field.span, `\`${field.name}\` is a measure; ${where} runs per row, so it can only use dimensions`);
      return undefined;
    }
  }
  const candidates = scope.kind === 'aggregate' ? node.measures.keys() : node.dimensions.keys();
  const suggestion = didYouMean(field.name, candidates);
  const hint =
    suggestion || scope.kind === 'aggregate'
      ? suggestion
      : `; columns are used through dimensions: declare \`dimension ${field.name} { type: ...  hidden: true }\` on \`${node.name}\``;
  sink.report('CML302', field.span, `\`${node.name}\` has no ${scope.kind === 'aggregate' ? 'measure' : 'dimension'} \`${field.name}\`${hint}`);
  return undefined;
}
