// Links a reveal: its base, default time dimension and metrics. Metrics read measures of the base or of
// nodes the base reaches through joins; `expr` metrics combine other metrics and measures after
// aggregation. Unqualified names in `expr` are looked up among the reveal's metrics first, then among
// the base's measures, so a metric may shadow a measure of the same name on purpose.
import type { Metric, Reveal, SourceSpan, SqlPart, TimeScope } from '../semantic/model.js';
import type { MemberDecl, Name, SqlValue, TopDecl } from './ast.js';
import { reportCycles, type Edge } from './cycles.js';
import type { DiagnosticSink } from './diagnostics.js';
import type { Reach, JoinGraph } from './join-graph.js';
import type { NodeDraft } from './node-drafts.js';
import { checkedUnit, labelFromName, readBlock, readSynonyms, type PropertyBag } from './properties.js';
import { METRIC_SCHEMA, REVEAL_SCHEMA } from './schema.js';
import { didYouMean } from './suggest.js';

interface Read {
  /** The name the node is reached by: its own, or a join role (`ship_to`). */
  readonly node: string;
  readonly span: SourceSpan;
}

interface MetricDraft {
  readonly metric: Metric;
  /** Neither `time_scope:` nor `snapshot:` said how time bounds it, and the reveal has a time dimension. */
  readonly scopeUnwritten: boolean;
  /** Measures this metric reads itself (not through other metrics), where each is written. */
  readonly reads: readonly Read[];
  readonly metricEdges: readonly Edge[];
}

interface RevealContext {
  readonly reveal: string;
  readonly base: NodeDraft | undefined;
  readonly reach: Reach | undefined;
  readonly metricNames: ReadonlySet<string>;
  readonly nodes: ReadonlyMap<string, NodeDraft>;
  readonly sink: DiagnosticSink;
  /** The reveal names a time dimension: without one, every metric is a snapshot. */
  readonly hasTime: boolean;
}

/**
 * `unwritten`: the metrics whose time scope the model does not say (in a reveal with a time
 * dimension); they are `flow` here, and the linker infers which of them are stocks (time-scope.ts).
 */
export function linkReveal(decl: TopDecl, nodes: ReadonlyMap<string, NodeDraft>, graph: JoinGraph, sink: DiagnosticSink): { reveal: Reveal; unwritten: ReadonlySet<string> } {
  const name = decl.name.name;
  const props = readBlock(decl.properties, REVEAL_SCHEMA, 'a reveal', sink);
  if (!props.has('domain')) sink.report('CML104', decl.name.span, `reveal \`${name}\` needs \`domain:\``);
  if (!props.has('base')) sink.report('CML104', decl.name.span, `reveal \`${name}\` needs \`base:\` (the node its queries start from)`);
  const baseName = props.name('base');
  const base = baseName ? nodes.get(baseName.name) : undefined;
  if (baseName && !base) sink.report('CML301', baseName.span, `unknown node \`${baseName.name}\`${didYouMean(baseName.name, nodes.keys())}`);

  const unique = new Map<string, MemberDecl>();
  for (const member of decl.members) {
    const earlier = unique.get(member.name.name);
    if (earlier) sink.report('CML204', member.name.span, `reveal \`${name}\` already has a metric \`${member.name.name}\` (line ${earlier.name.span.line})`);
    else unique.set(member.name.name, member);
  }
  const context: RevealContext = {
    reveal: name,
    base,
    reach: base ? graph.reachFrom(base.name) : undefined,
    metricNames: new Set(unique.keys()),
    nodes,
    sink,
    hasTime: props.has('time'),
  };
  const drafts = new Map<string, MetricDraft>();
  for (const [metricName, member] of unique) drafts.set(metricName, linkMetric(member, context));

  reportCycles(new Map([...drafts].map(([n, d]) => [n, d.metricEdges])), 'metric', sink);
  reportFanOut(drafts, context);

  const timeRef = props.ref('time');
  const time = timeRef ? resolveTime(timeRef, context) : undefined;
  const reveal: Reveal = {
    name,
    domain: props.name('domain')?.name ?? '',
    label: props.text('label') ?? labelFromName(name),
    description: props.text('description') ?? '',
    base: baseName?.name ?? '',
    ...(time ? { time } : {}),
    ...(props.list('languages')?.length ? { languages: props.list('languages')! } : {}),
    metrics: new Map([...drafts].map(([n, d]) => [n, d.metric])),
    file: decl.name.span.file,
    span: decl.span,
  };
  return { reveal, unwritten: new Set([...drafts].filter(([, d]) => d.scopeUnwritten).map(([n]) => n)) };
}

function linkMetric(decl: MemberDecl, context: RevealContext): MetricDraft {
  const { sink } = context;
  const name = decl.name.name;
  const props = readBlock(decl.properties, METRIC_SCHEMA, 'a metric', sink);
  if (props.has('measure') && props.has('expr')) {
    sink.report('CML105', props.keySpan('expr') ?? decl.name.span, `metric \`${name}\` has both \`measure:\` and \`expr:\`; keep one`);
  } else if (!props.has('measure') && !props.has('expr')) {
    sink.report('CML104', decl.name.span, `metric \`${name}\` needs \`measure:\` (one measure) or \`expr:\` (a formula over metrics and measures)`);
  }
  const reads: Read[] = [];
  const metricEdges: Edge[] = [];
  const measurePath = props.ref('measure');
  const measure = measurePath ? resolveMeasure(measurePath, context) : undefined;
  if (measure) reads.push({ node: measure.role ?? measure.node, span: measure.span });
  const exprValue = props.sql('expr');
  const expr = exprValue ? resolveExpr(exprValue, context, reads, metricEdges) : undefined;
  const measureDraft = measure ? context.nodes.get(measure.node)?.measures.get(measure.name) : undefined;
  const format = props.name('format')?.name ?? measureDraft?.format;
  // The unit is the metric's own, else that of the one measure it reads.
  const unit = checkedUnit(props, sink) ?? measureDraft?.unit ?? '';
  const synonyms = readSynonyms(props);
  const written = writtenTimeScope(name, props, context);
  const timeScope = written ?? (context.hasTime ? 'flow' : 'snapshot');
  const metric: Metric = {
    reveal: context.reveal,
    name,
    label: props.text('label') ?? labelFromName(name),
    description: props.text('description') ?? '',
    unit,
    synonyms: synonyms.all,
    ...(synonyms.byLanguage ? { synonymsByLanguage: synonyms.byLanguage } : {}),
    timeScope,
    snapshot: timeScope === 'snapshot',
    ...(format ? { format } : {}),
    ...(measure ? { measure: { node: measure.node, name: measure.name, ...(measure.role ? { role: measure.role } : {}) } } : {}),
    ...(expr ? { expr } : {}),
    span: decl.span,
  };
  return { metric, scopeUnwritten: written === undefined && context.hasTime, reads, metricEdges };
}

/**
 * The time scope the metric's block says: `time_scope:`, or `snapshot:` (the older spelling of
 * `time_scope: snapshot`; `snapshot: false` says only "not a snapshot"). A flow or a stock needs the
 * reveal's time dimension, which is what a named period filters.
 */
function writtenTimeScope(name: string, props: PropertyBag, context: RevealContext): TimeScope | undefined {
  const scope = props.name('time_scope')?.name as TimeScope | undefined;
  const snapshot = props.bool('snapshot');
  if (scope && snapshot !== undefined && snapshot !== (scope === 'snapshot')) {
    context.sink.report('CML105', props.keySpan('time_scope')!, `metric \`${name}\` says \`snapshot: ${snapshot}\` and \`time_scope: ${scope}\`; keep \`time_scope:\``);
  } else if (!context.hasTime && (scope ? scope !== 'snapshot' : snapshot === false)) {
    const [key, value] = scope ? ['time_scope', scope] : ['snapshot', 'false'];
    context.sink.report(
      'CML404',
      props.valueSpan(key)!,
      `\`${key}: ${value}\` needs the reveal's \`time:\`, the dimension a question's period filters; without one, every metric of reveal \`${context.reveal}\` is a snapshot`,
    );
  }
  return scope ?? (snapshot === true ? 'snapshot' : undefined);
}

/** `measure` (of the base), `node.measure` or `role.measure`, on a node the base reaches. */
function resolveMeasure(path: readonly Name[], context: RevealContext): { node: string; name: string; role?: string; span: SourceSpan } | undefined {
  const target = resolveNodeOf(path, context);
  if (!target) return undefined;
  const { node, field, reachedAs } = target;
  const span = spanOf(path);
  if (field.name === 'TABLE') {
    context.sink.report('CML304', field.span, 'a metric combines measures; `TABLE` is row-level');
    return undefined;
  }
  if (!node.measures.has(field.name)) {
    if (node.dimensions.has(field.name)) context.sink.report('CML305', field.span, `\`${field.name}\` is a dimension of \`${node.name}\`; a metric reads a measure`);
    else context.sink.report('CML302', field.span, `\`${node.name}\` has no measure \`${field.name}\`${didYouMean(field.name, node.measures.keys())}`);
    return undefined;
  }
  checkReachable(node, reachedAs, span, context);
  return { node: node.name, name: field.name, ...(reachedAs !== node.name ? { role: reachedAs } : {}), span };
}

function resolveExpr(value: SqlValue, context: RevealContext, reads: Read[], metricEdges: Edge[]): SqlPart[] {
  const { sink, base } = context;
  const template: SqlPart[] = [];
  for (const chunk of value.chunks) {
    if (chunk.kind === 'text') {
      template.push({ kind: 'text', text: chunk.text });
      continue;
    }
    const [first, second] = chunk.segments as [Name, Name | undefined];
    if (second) {
      const measure = resolveMeasure(chunk.segments, context);
      if (measure) {
        template.push({ kind: 'measure', node: measure.node, name: measure.name, ...(measure.role ? { role: measure.role } : {}) });
        reads.push({ node: measure.role ?? measure.node, span: chunk.span });
      }
      continue;
    }
    if (context.metricNames.has(first.name)) {
      template.push({ kind: 'metric', reveal: context.reveal, name: first.name });
      metricEdges.push({ to: first.name, span: chunk.span });
    } else if (first.name === 'TABLE') {
      sink.report('CML304', first.span, 'a metric combines metrics and measures; `${TABLE}` is row-level');
    } else if (base?.measures.has(first.name)) {
      template.push({ kind: 'measure', node: base.name, name: first.name });
      reads.push({ node: base.name, span: chunk.span });
    } else if (base?.dimensions.has(first.name)) {
      sink.report('CML304', first.span, `\`${first.name}\` is a dimension of \`${base.name}\`; a metric combines metrics and measures`);
    } else if (base) {
      const candidates = [...context.metricNames, ...base.measures.keys()];
      sink.report('CML303', first.span, `no metric of reveal \`${context.reveal}\` and no measure of \`${base.name}\` is named \`${first.name}\`${didYouMean(first.name, candidates)}`);
    }
  }
  return template;
}

function resolveTime(path: readonly Name[], context: RevealContext): { node: string; dimension: string; role?: string } | undefined {
  const target = resolveNodeOf(path, context);
  if (!target) return undefined;
  const { node, field, reachedAs } = target;
  const dimension = node.dimensions.get(field.name);
  if (!dimension) {
    if (node.measures.has(field.name)) context.sink.report('CML305', field.span, `\`${field.name}\` is a measure; \`time:\` names a date or timestamp dimension`);
    else context.sink.report('CML302', field.span, `\`${node.name}\` has no dimension \`${field.name}\`${didYouMean(field.name, node.dimensions.keys())}`);
    return undefined;
  }
  if (dimension.type && dimension.type !== 'date' && dimension.type !== 'timestamp') {
    context.sink.report('CML403', field.span, `\`time:\` needs a date or timestamp dimension, but \`${field.name}\` is a ${dimension.type}`);
  }
  checkReachable(node, reachedAs, spanOf(path), context);
  return { node: node.name, dimension: field.name, ...(reachedAs !== node.name ? { role: reachedAs } : {}) };
}

/**
 * `field` → the base's; `node.field` → that node's; `role.field` → the node a join role of the base's
 * joins reaches. `reachedAs` is the name written (the node's own name, or the role). Undefined
 * (reported if new) when unknown.
 */
function resolveNodeOf(path: readonly Name[], context: RevealContext): { node: NodeDraft; field: Name; reachedAs: string } | undefined {
  const [first, second] = path as [Name, Name | undefined];
  if (!second) return context.base ? { node: context.base, field: first, reachedAs: context.base.name } : undefined;
  const roleOf = context.reach?.reachable.get(first.name);
  const node = context.nodes.get(roleOf ?? first.name);
  if (!node) {
    const roles = rolesReached(context);
    if (roles.length) {
      const candidates = [...context.nodes.keys(), ...roles];
      context.sink.report('CML307', first.span, `\`${first.name}\` is neither a node nor a join role reached from \`${context.base!.name}\` (roles: ${roles.join(', ')})${didYouMean(first.name, candidates)}`);
    } else context.sink.report('CML301', first.span, `unknown node \`${first.name}\`${didYouMean(first.name, context.nodes.keys())}`);
    return undefined;
  }
  return { node, field: second, reachedAs: first.name };
}

/** Join roles the base reaches (names that differ from the node they read). */
function rolesReached(context: RevealContext): string[] {
  return [...(context.reach?.reachable ?? [])].filter(([name, node]) => name !== node).map(([name]) => name);
}

function checkReachable(node: NodeDraft, reachedAs: string, span: SourceSpan, context: RevealContext): void {
  const { base, reach } = context;
  if (!base || !reach) return;
  if (reach.ambiguous.has(reachedAs)) {
    context.sink.report('CML504', span, `\`${reachedAs}\` is reached from \`${base.name}\` through more than one join role at the same distance, so which one is meant cannot be told; give the join to it a role on the node that joins it`);
    return;
  }
  if (reach.reachable.has(reachedAs)) return;
  const roles = [...reach.reachable].filter(([name, reached]) => reached === node.name && name !== node.name).map(([name]) => name);
  const message = roles.length
    ? `\`${node.name}\` is joined from \`${base.name}\` only in roles (${roles.join(', ')}); name the role, e.g. \`${roles[0]}.<field>\``
    : `\`${node.name}\` cannot be reached from the base \`${base.name}\` through joins; declare \`join ${node.name} { ... }\` on \`${base.name}\` or on a node it joins`;
  context.sink.report('CML504', span, message);
}

/**
 * Warns at each read of a fanned node when the reveal also reads a node that is not fanned: queried
 * together, the rows of the latter would be repeated once per matching row of the former.
 */
function reportFanOut(drafts: ReadonlyMap<string, MetricDraft>, context: RevealContext): void {
  const { base, reach } = context;
  if (!base || !reach || reach.fanned.size === 0) return;
  const reads = [...drafts.values()].flatMap((d) => d.reads);
  if (!reads.some((r) => !reach.fanned.has(r.node))) return;
  for (const read of reads) {
    if (!reach.fanned.has(read.node)) continue;
    context.sink.report(
      'CML505',
      read.span,
      `\`${read.node}\` is reached from \`${base.name}\` only through a one_to_many join, so beside metrics on \`${base.name}\` its rows fan out and those metrics count rows more than once; give \`${read.node}\` metrics their own reveal (base \`${read.node}\`)`,
    );
  }
}

function spanOf(path: readonly Name[]): SourceSpan {
  const first = path[0]!.span;
  const last = path[path.length - 1]!.span;
  return { file: first.file, line: first.line, column: first.column, endLine: last.endLine, endColumn: last.endColumn };
}
