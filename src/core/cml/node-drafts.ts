// First pass over a node: read its properties and members into a draft, with everything that needs no
// other node. SQL stays unresolved here (link-node-sql.ts resolves it once every node is declared), and
// `toSemanticNode` freezes a finished draft into the model's shape.
import type {
  DataKey,
  Dimension,
  DimensionType,
  Join,
  Measure,
  NodeSource,
  Relationship,
  SemanticNode,
  SqlTemplate,
} from '../semantic/model.js';
import type { MemberDecl, Name, SqlValue, TopDecl } from './ast.js';
import type { DiagnosticSink } from './diagnostics.js';
import { checkedUnit, labelFromName, readBlock, readSynonyms, type PropertyBag } from './properties.js';
import { declareRollup, type RollupDraft } from './rollups.js';
import { DATA_KEY_SCHEMA, DIMENSION_SCHEMA, JOIN_SCHEMA, MEASURE_SCHEMA, NODE_SCHEMA, type CmlMeasureType } from './schema.js';

export interface DimensionDraft {
  readonly decl: MemberDecl;
  readonly label: string;
  readonly description: string;
  readonly type: DimensionType | undefined;
  readonly primaryKey: boolean;
  readonly hidden: boolean;
  readonly synonyms: readonly string[];
  readonly valueSynonyms: ReadonlyMap<string, readonly string[]>;
  readonly sqlValue: SqlValue | undefined;
  sql: SqlTemplate;
}

export interface MeasureDraft {
  readonly decl: MemberDecl;
  readonly label: string;
  readonly description: string;
  readonly type: CmlMeasureType | undefined;
  readonly format: string | undefined;
  /** As written; for a ratio without one, its numerator's over its denominator's once both are resolved. */
  unit: string | undefined;
  readonly hidden: boolean;
  readonly sqlValue: SqlValue | undefined;
  readonly filterValue: SqlValue | undefined;
  /** `numerator:` and `denominator:` of a ratio, as written (`name` or `node.name`). */
  readonly numeratorRef: readonly Name[] | undefined;
  readonly denominatorRef: readonly Name[] | undefined;
  sql?: SqlTemplate;
  filter?: SqlTemplate;
  /** A ratio's two measures of this node, once resolved. */
  ratio?: { readonly numerator: string; readonly denominator: string };
}

export interface JoinDraft {
  readonly decl: MemberDecl;
  /** The role name fields are reached by: the alias of `join ship_to: regions`, else the node's name. */
  readonly alias: Name;
  /** The node joined. */
  readonly target: Name;
  readonly synonyms: readonly string[];
  readonly relationship: Relationship | undefined;
  readonly onValue: SqlValue | undefined;
  on: SqlTemplate;
  /** Set once the target is known to be a node this one may join. */
  connects: boolean;
}

export interface DataKeyDraft {
  readonly decl: MemberDecl;
  readonly dimension: Name | undefined;
  readonly attribute: string | undefined;
}

export interface NodeDraft {
  readonly decl: TopDecl;
  readonly name: string;
  readonly file: string;
  readonly label: string;
  readonly description: string;
  readonly domain: string | undefined;
  readonly connection: string | undefined;
  source: NodeSource | undefined;
  readonly sourceValue: SqlValue | undefined;
  readonly tags: readonly string[];
  /** Dimensions and measures share one namespace: `${name}` must mean one thing. */
  readonly dimensions: Map<string, DimensionDraft>;
  readonly measures: Map<string, MeasureDraft>;
  readonly joins: JoinDraft[];
  readonly dataKeys: DataKeyDraft[];
  readonly rollups: RollupDraft[];
}

export function declareNode(decl: TopDecl, sink: DiagnosticSink): NodeDraft {
  const props = readBlock(decl.properties, NODE_SCHEMA, 'a node', sink);
  const name = decl.name.name;
  const connection = props.name('connection')?.name;
  if (!props.has('connection')) sink.report('CML104', decl.name.span, `node \`${name}\` needs \`connection:\` (the warehouse it reads from)`);
  const table = props.table('table');
  if (props.has('table') && props.has('sql')) {
    sink.report('CML105', props.keySpan('sql') ?? decl.name.span, `node \`${name}\` has both \`table:\` and \`sql:\`; keep one`);
  } else if (!props.has('table') && !props.has('sql')) {
    sink.report('CML104', decl.name.span, `node \`${name}\` needs \`table:\` or \`sql:\` (where its rows come from)`);
  }
  const node: NodeDraft = {
    decl,
    name,
    file: decl.name.span.file,
    label: props.text('label') ?? labelFromName(name),
    description: props.text('description') ?? '',
    domain: props.name('domain')?.name,
    connection,
    source: table !== undefined ? { kind: 'table', table } : undefined,
    sourceValue: props.has('table') ? undefined : props.sql('sql'),
    tags: props.list('tags') ?? [],
    dimensions: new Map(),
    measures: new Map(),
    joins: [],
    dataKeys: [],
    rollups: [],
  };
  const joinAliases = new Map<string, MemberDecl>();
  const dataKeyNames = new Map<string, MemberDecl>();
  for (const member of decl.members) {
    if (member.kind === 'dimension' || member.kind === 'measure') {
      const earlier = node.dimensions.get(member.name.name)?.decl ?? node.measures.get(member.name.name)?.decl;
      if (earlier) {
        sink.report('CML203', member.name.span, `node \`${name}\` already has a ${earlier.kind} \`${member.name.name}\` (line ${earlier.name.span.line})`);
      }
      if (member.kind === 'dimension') {
        const dimension = declareDimension(member, sink);
        if (!earlier) node.dimensions.set(member.name.name, dimension);
      } else {
        const measure = declareMeasure(member, sink);
        if (!earlier) node.measures.set(member.name.name, measure);
      }
    } else if (member.kind === 'join') {
      const join = declareJoin(member, sink);
      const earlier = joinAliases.get(join.alias.name);
      if (earlier) reportDuplicateJoin(name, join, earlier, sink);
      else {
        joinAliases.set(join.alias.name, member);
        node.joins.push(join);
      }
    } else if (member.kind === 'data_key') {
      const dataKey = declareDataKey(member, sink);
      const earlier = dataKeyNames.get(member.name.name);
      if (earlier) sink.report('CML205', member.name.span, `node \`${name}\` already has a data key \`${member.name.name}\` (line ${earlier.name.span.line})`);
      else {
        dataKeyNames.set(member.name.name, member);
        node.dataKeys.push(dataKey);
      }
    } else if (member.kind === 'rollup') {
      const rollup = declareRollup(member, sink);
      const earlier = node.rollups.find((r) => r.decl.name.name === member.name.name);
      if (earlier) sink.report('CML207', member.name.span, `node \`${name}\` already has a rollup \`${member.name.name}\` (line ${earlier.decl.name.span.line}); give each its own name`);
      else node.rollups.push(rollup);
    }
  }
  return node;
}

function declareDimension(decl: MemberDecl, sink: DiagnosticSink): DimensionDraft {
  const props = readBlock(decl.properties, DIMENSION_SCHEMA, 'a dimension', sink);
  if (!props.has('type')) sink.report('CML104', decl.name.span, `dimension \`${decl.name.name}\` needs \`type:\` (string, number, boolean, date or timestamp)`);
  return {
    decl,
    label: props.text('label') ?? labelFromName(decl.name.name),
    description: props.text('description') ?? '',
    type: props.name('type')?.name as DimensionType | undefined,
    primaryKey: props.bool('primary_key') ?? false,
    hidden: props.bool('hidden') ?? false,
    synonyms: readSynonyms(props).all,
    valueSynonyms: props.map('values') ?? new Map(),
    sqlValue: props.sql('sql'),
    sql: [],
  };
}

/** Every aggregate but a plain row count needs an expression to aggregate. */
const NEEDS_SQL: ReadonlySet<string> = new Set(['count_distinct', 'sum', 'avg', 'min', 'max', 'number']);

function declareMeasure(decl: MemberDecl, sink: DiagnosticSink): MeasureDraft {
  const props = readBlock(decl.properties, MEASURE_SCHEMA, 'a measure', sink);
  const type = props.name('type')?.name as CmlMeasureType | undefined;
  if (!props.has('type')) sink.report('CML104', decl.name.span, `measure \`${decl.name.name}\` needs \`type:\` (count, count_distinct, sum, avg, min, max, number or ratio)`);
  if (type && NEEDS_SQL.has(type) && !props.has('sql')) sink.report('CML104', decl.name.span, `a \`${type}\` measure needs \`sql:\` (the expression it aggregates)`);
  if ((type === 'number' || type === 'ratio') && props.has('filter')) {
    sink.report('CML402', props.keySpan('filter') ?? decl.name.span, `a \`${type}\` measure combines other measures after aggregation, so it cannot have \`filter:\`; filter the measures it uses`);
  }
  if (type === 'ratio') checkRatioProperties(decl, props, sink);
  else if (type) {
    for (const key of ['numerator', 'denominator']) {
      const span = props.keySpan(key);
      if (span) sink.report('CML107', span, `\`${key}:\` is for \`type: ratio\` measures; a \`${type}\` measure does not divide two measures`);
    }
  }
  return {
    decl,
    label: props.text('label') ?? labelFromName(decl.name.name),
    description: props.text('description') ?? '',
    type,
    format: props.name('format')?.name,
    unit: checkedUnit(props, sink),
    hidden: props.bool('hidden') ?? false,
    sqlValue: type === 'ratio' ? undefined : props.sql('sql'),
    filterValue: type === 'number' || type === 'ratio' ? undefined : props.sql('filter'),
    numeratorRef: type === 'ratio' ? props.ref('numerator') : undefined,
    denominatorRef: type === 'ratio' ? props.ref('denominator') : undefined,
  };
}

/** A ratio is its numerator over its denominator: both are needed, and there is no SQL to write. */
function checkRatioProperties(decl: MemberDecl, props: PropertyBag, sink: DiagnosticSink): void {
  const name = decl.name.name;
  if (!props.has('numerator')) sink.report('CML104', decl.name.span, `ratio \`${name}\` needs \`numerator:\` (the measure divided, e.g. \`numerator: on_time_flights\`)`);
  if (!props.has('denominator')) sink.report('CML104', decl.name.span, `ratio \`${name}\` needs \`denominator:\` (the measure it is divided by, e.g. \`denominator: flight_count\`)`);
  const sql = props.keySpan('sql');
  if (sql) {
    sink.report('CML107', sql, `ratio \`${name}\` is \`numerator:\` divided by \`denominator:\` and takes no \`sql:\`; for another formula over measures, write \`type: number\``);
  }
}

function declareJoin(decl: MemberDecl, sink: DiagnosticSink): JoinDraft {
  const props = readBlock(decl.properties, JOIN_SCHEMA, 'a join', sink);
  for (const key of ['relationship', 'on']) {
    if (!props.has(key)) sink.report('CML104', decl.name.span, `join \`${decl.name.name}\` needs \`${key}:\``);
  }
  return {
    decl,
    alias: decl.name,
    target: decl.target ?? decl.name,
    synonyms: readSynonyms(props).all,
    relationship: props.name('relationship')?.name as Relationship | undefined,
    onValue: props.sql('on'),
    on: [],
    connects: false,
  };
}

/** Two joins reaching their nodes under one name: the second is dropped, with how to tell them apart. */
function reportDuplicateJoin(node: string, join: JoinDraft, earlier: MemberDecl, sink: DiagnosticSink): void {
  const alias = join.alias.name;
  const line = earlier.name.span.line;
  const message =
    join.decl.target || earlier.target
      ? `node \`${node}\` already has a join named \`${alias}\` (line ${line}); each role needs its own name`
      : `node \`${node}\` already joins \`${alias}\` (line ${line}); to join it again in another role, name both roles: \`join ship_from: ${alias} { ... }\`, \`join ship_to: ${alias} { ... }\``;
  sink.report('CML205', join.alias.span, message);
}

function declareDataKey(decl: MemberDecl, sink: DiagnosticSink): DataKeyDraft {
  const props = readBlock(decl.properties, DATA_KEY_SCHEMA, 'a data key', sink);
  for (const key of ['dimension', 'attribute']) {
    if (!props.has(key)) sink.report('CML104', decl.name.span, `data key \`${decl.name.name}\` needs \`${key}:\``);
  }
  return { decl, dimension: props.name('dimension'), attribute: props.word('attribute') };
}

/** Only called when the compilation has no errors, so every required piece is there. */
export function toSemanticNode(node: NodeDraft): SemanticNode {
  const dimensions = new Map<string, Dimension>();
  for (const [name, d] of node.dimensions) {
    dimensions.set(name, {
      node: node.name,
      name,
      label: d.label,
      description: d.description,
      type: d.type ?? 'string',
      sql: d.sql,
      primaryKey: d.primaryKey,
      hidden: d.hidden,
      ...(d.synonyms.length ? { synonyms: d.synonyms } : {}),
      ...(d.valueSynonyms.size ? { valueSynonyms: d.valueSynonyms } : {}),
      span: d.decl.span,
    });
  }
  const measures = new Map<string, Measure>();
  for (const [name, m] of node.measures) {
    measures.set(name, {
      node: node.name,
      name,
      label: m.label,
      description: m.description,
      type: m.type === 'ratio' ? 'number' : (m.type ?? 'count'),
      ...(m.sql ? { sql: m.sql } : {}),
      ...(m.ratio ? { ratio: m.ratio } : {}),
      ...(m.filter ? { filter: m.filter } : {}),
      ...(m.format ? { format: m.format } : {}),
      ...(m.unit !== undefined ? { unit: m.unit } : {}),
      hidden: m.hidden,
      span: m.decl.span,
    });
  }
  const joins: Join[] = node.joins.map((j) => ({
    from: node.name,
    to: j.target.name,
    ...(j.alias.name !== j.target.name ? { alias: j.alias.name } : {}),
    ...(j.synonyms.length ? { synonyms: j.synonyms } : {}),
    relationship: j.relationship ?? 'many_to_one',
    on: j.on,
    span: j.decl.span,
  }));
  const dataKeys: DataKey[] = node.dataKeys.map((k) => ({
    node: node.name,
    name: k.decl.name.name,
    dimension: k.dimension?.name ?? '',
    attribute: k.attribute ?? '',
    span: k.decl.span,
  }));
  return {
    name: node.name,
    label: node.label,
    description: node.description,
    ...(node.domain ? { domain: node.domain } : {}),
    connection: node.connection ?? '',
    source: node.source ?? { kind: 'sql', sql: '' },
    tags: node.tags,
    dimensions,
    measures,
    joins,
    dataKeys,
    rollups: node.rollups.flatMap((r) => (r.rollup ? [r.rollup] : [])),
    file: node.file,
    span: node.decl.span,
  };
}
