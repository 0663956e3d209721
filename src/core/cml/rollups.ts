// `rollup` blocks of a node. Pass 1 (`declareRollup`) reads what needs no other field: the time zone,
// the refresh rule and the build range. Pass 2 (`linkRollup`, once the node's measures are resolved)
// checks the names against the node, the grains against the time dimension, and works out what each
// measure needs stored (rollup-measures.ts), giving the model's `Rollup` with its columns.
import { buildsUp, finerThan } from '../semantic/rollup-grains.js';
import { LATEST_SOURCE_TIME, type PartitionGrain, type Rollup, type RollupBuildRange, type RollupColumn, type RollupGrain, type RollupRefresh } from '../semantic/rollup-model.js';
import { assertTimeZone } from '../semantic/time.js';
import type { MemberDecl, Name, Property } from './ast.js';
import type { DiagnosticSink } from './diagnostics.js';
import type { NodeDraft } from './node-drafts.js';
import { readBlock, type PropertyBag } from './properties.js';
import { RollupMeasureReader } from './rollup-measures.js';
import { readBuildRange, readRefresh } from './rollup-rules.js';
import { ROLLUP_SCHEMA } from './schema.js';
import { didYouMean } from './suggest.js';

export interface RollupDraft {
  readonly decl: MemberDecl;
  readonly props: PropertyBag;
  readonly timezone: string;
  readonly refresh: RollupRefresh | undefined;
  readonly buildRange: RollupBuildRange;
  /** Set by pass 2. */
  rollup?: Rollup;
}

export function declareRollup(decl: MemberDecl, sink: DiagnosticSink): RollupDraft {
  const props = readBlock(ownFieldsOnly(decl, sink), ROLLUP_SCHEMA, 'a rollup', sink);
  const name = decl.name.name;
  if (!props.has('measures')) sink.report('CML104', decl.name.span, `rollup \`${name}\` needs \`measures:\` (the measures it stores, e.g. \`measures: [revenue, order_count]\`)`);
  if (!props.has('refresh')) sink.report('CML104', decl.name.span, `rollup \`${name}\` needs \`refresh:\` (\`on_deploy\`, an interval such as "1 hour", or a cron such as "0 3 * * *")`);
  const timezone = readTimezone(props, sink);
  return { decl, props, timezone, refresh: readRefreshOf(props, timezone, sink), buildRange: readRangeOf(name, props, sink) };
}

/**
 * `dimensions:` and `measures:` name fields of the rollup's own node. A field of a joined node
 * (`customers.segment`) is refused here, with the reason, rather than as a malformed list item.
 */
function ownFieldsOnly(decl: MemberDecl, sink: DiagnosticSink): Property[] {
  return decl.properties.map((property) => {
    const { key, value } = property;
    if ((key.name !== 'dimensions' && key.name !== 'measures') || value?.kind !== 'list') return property;
    const items = value.items.filter((item) => {
      if (item.kind !== 'path' || item.segments.length === 1) return true;
      const written = item.segments.map((s) => s.name).join('.');
      sink.report(
        'CML304',
        item.span,
        `a rollup stores fields of its own node, so \`${written}\` (reached through a join) cannot be in its \`${key.name}:\`; query it from the source, or declare a rollup on \`${item.segments[0]!.name}\``,
      );
      return false;
    });
    return { key, value: { ...value, items } };
  });
}

function readTimezone(props: PropertyBag, sink: DiagnosticSink): string {
  const zone = props.text('timezone');
  if (zone === undefined) return 'UTC';
  try {
    assertTimeZone(zone);
    return zone;
  } catch {
    sink.report('CML706', props.valueSpan('timezone')!, `unknown time zone "${zone}"; write an IANA name such as "UTC" or "Europe/Paris"`);
    return 'UTC';
  }
}

/** A cron is read in the rollup's zone (UTC when the zone written is unknown, which is reported). */
function readRefreshOf(props: PropertyBag, timezone: string, sink: DiagnosticSink): RollupRefresh | undefined {
  const quoted = props.text('refresh');
  const written = quoted ?? props.word('refresh');
  if (written === undefined) return undefined;
  const read = readRefresh(written, quoted !== undefined, timezone);
  if ('value' in read) return read.value;
  sink.report('CML704', props.valueSpan('refresh')!, read.error);
  return undefined;
}

function readRangeOf(name: string, props: PropertyBag, sink: DiagnosticSink): RollupBuildRange {
  const written = props.text('build_range');
  if (written === undefined) return { kind: 'all' };
  const read = readBuildRange(written);
  if ('error' in read) sink.report('CML705', props.valueSpan('build_range')!, read.error);
  else if (!props.has('time')) sink.report('CML705', props.valueSpan('build_range')!, `rollup \`${name}\` has no \`time:\`, so there is nothing to limit its rows by; add \`time:\` or drop \`build_range:\``);
  else return read.value;
  return { kind: 'all' };
}

/** Pass 2: names, grains and stored measures. Sets `draft.rollup`. */
export function linkRollup(draft: RollupDraft, node: NodeDraft, sink: DiagnosticSink): void {
  const { props, decl } = draft;
  const time = linkTime(draft, node, sink);
  const dimensions: string[] = [];
  for (const item of props.names('dimensions') ?? []) {
    if (dimensions.includes(item.name)) sink.report('CML203', item.span, `\`${item.name}\` is already listed in \`dimensions:\``);
    else if (item.name === time?.dimension) {
      sink.report('CML105', item.span, `\`${item.name}\` is the rollup's \`time:\`, stored by \`grain:\`; listing it in \`dimensions:\` too would store every instant, so drop it here`);
    } else if (checkField(item, 'dimension', node, sink)) dimensions.push(item.name);
  }
  warnDataKeys(draft, node, dimensions, sink);
  const reader = new RollupMeasureReader(node);
  const listed = new Set<string>();
  for (const item of props.names('measures') ?? []) {
    if (listed.has(item.name)) {
      sink.report('CML203', item.span, `\`${item.name}\` is already listed in \`measures:\``);
      continue;
    }
    listed.add(item.name);
    if (!checkField(item, 'measure', node, sink)) continue;
    const refusal = reader.add(item.name);
    if (!refusal?.why) continue;
    const because = refusal.measure === item.name ? refusal.why : `it uses \`${refusal.measure}\`, and ${refusal.why}`;
    sink.report('CML701', item.span, `\`${item.name}\` cannot be in a rollup: ${because}`);
  }
  const partition = linkPartition(draft, time, sink);
  const stored = reader.stored();
  const columns: RollupColumn[] = [
    ...dimensions.map((dimension) => ({ kind: 'dimension' as const, name: dimension, dimension })),
    ...(time ? [{ kind: 'time' as const, name: `${time.dimension}__${time.grain}`, ...time }] : []),
    ...stored.columns,
    ...(time ? [{ kind: 'latest' as const, name: LATEST_SOURCE_TIME, dimension: time.dimension }] : []),
  ];
  draft.rollup = {
    node: node.name,
    name: decl.name.name,
    dimensions,
    ...(time ? { time } : {}),
    ...(partition ? { partition } : {}),
    timezone: draft.timezone,
    refresh: draft.refresh ?? { kind: 'deploy' },
    buildRange: draft.buildRange,
    measures: stored.measures,
    columns,
    span: decl.span,
  };
}

/**
 * A rollup without the dimension of a data key cannot keep a limited user to their rows, so it only
 * ever answers users who see every row of that key: allowed (a dashboard for them is a fair use), but
 * rarely meant.
 */
function warnDataKeys(draft: RollupDraft, node: NodeDraft, dimensions: readonly string[], sink: DiagnosticSink): void {
  for (const key of node.dataKeys) {
    const dimension = key.dimension?.name;
    if (!dimension || dimensions.includes(dimension) || !node.dimensions.has(dimension)) continue;
    sink.report(
      'CML707',
      draft.decl.name.span,
      `rollup \`${draft.decl.name.name}\` does not hold \`${dimension}\`, the dimension of data key \`${key.decl.name.name}\`, so it answers only users whose \`${key.attribute ?? dimension}\` is \`*\`; add \`${dimension}\` to its \`dimensions:\` to serve every user`,
    );
  }
}

/** A name in `dimensions:` or `measures:` that is a field of that kind of the node. */
function checkField(item: Name, kind: 'dimension' | 'measure', node: NodeDraft, sink: DiagnosticSink): boolean {
  const [own, other] = kind === 'dimension' ? [node.dimensions, node.measures] : [node.measures, node.dimensions];
  if (own.has(item.name)) return true;
  if (other.has(item.name)) {
    const otherKind = kind === 'dimension' ? 'measure' : 'dimension';
    sink.report('CML305', item.span, `\`${item.name}\` is a ${otherKind}; list it in \`${otherKind}s:\``);
  } else {
    sink.report('CML302', item.span, `node \`${node.name}\` has no ${kind} \`${item.name}\`${didYouMean(item.name, own.keys())}`);
  }
  return false;
}

function linkTime(draft: RollupDraft, node: NodeDraft, sink: DiagnosticSink): Rollup['time'] {
  const { props, decl } = draft;
  const name = props.name('time');
  const grain = props.name('grain')?.name as RollupGrain | undefined;
  if (props.has('grain') && !props.has('time')) {
    sink.report('CML104', props.keySpan('grain') ?? decl.name.span, `\`grain:\` buckets the rollup's time dimension; add \`time:\` (a date or timestamp dimension of \`${node.name}\`)`);
  }
  if (!name) return undefined;
  if (!props.has('grain')) sink.report('CML104', decl.name.span, `rollup \`${decl.name.name}\` has \`time:\` and needs \`grain:\` (hour, day, week, month, quarter or year)`);
  if (!checkField(name, 'dimension', node, sink)) return undefined;
  const type = node.dimensions.get(name.name)!.type;
  if (type !== 'date' && type !== 'timestamp') {
    if (type) sink.report('CML403', name.span, `\`${name.name}\` is a ${type} dimension; a rollup's \`time:\` is a date or timestamp dimension`);
    return undefined;
  }
  if (!grain) return undefined;
  if (type === 'date' && finerThan(grain, 'day')) {
    sink.report('CML702', props.valueSpan('grain')!, `\`${name.name}\` is a date, which has no hours; use \`grain: day\` or coarser`);
    return undefined;
  }
  return { dimension: name.name, grain };
}

function linkPartition(draft: RollupDraft, time: Rollup['time'], sink: DiagnosticSink): PartitionGrain | undefined {
  const partition = draft.props.name('partition')?.name as PartitionGrain | undefined;
  if (!partition) return undefined;
  const span = draft.props.valueSpan('partition')!;
  if (!draft.props.has('time')) {
    sink.report('CML703', span, 'a rollup is partitioned by its time dimension; add `time:` and `grain:`, or drop `partition:`');
    return undefined;
  }
  if (!time) return undefined;
  if (finerThan(partition, time.grain)) {
    sink.report('CML703', span, `partitions by ${partition} are finer than the rollup's grain ${time.grain}: a partition must hold whole ${time.grain}s; partition by ${time.grain} or coarser`);
    return undefined;
  }
  if (!buildsUp(time.grain, partition)) {
    sink.report('CML703', span, `weeks straddle ${partition}s, so a ${partition} partition cannot hold whole weeks; partition a weekly rollup by week`);
    return undefined;
  }
  return partition;
}
