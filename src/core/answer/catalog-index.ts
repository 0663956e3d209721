// What the offline planner knows about a model, built once per deployed model: for every reveal its
// metrics as phrases (name, label, synonyms) and the dimensions reachable from its base node (name,
// label, synonyms; for a joined node also qualified by the node or by the join's role), all in stemmed
// form, plus word weights (inverse document frequency over metrics) for ranking.
import { isRoleJoin, joinAlias } from '../semantic/join-instances.js';
import type { Granularity, Join, Measure, SemanticModel, SemanticNode } from '../semantic/model.js';
import { contentStems, identifierWords } from './text.js';

export type PhraseSource = 'name' | 'label' | 'synonym';

export interface MetricPhrase {
  readonly stems: readonly string[];
  readonly source: PhraseSource;
}

export interface IndexedMetric {
  readonly reveal: string;
  readonly name: string;
  readonly label: string;
  readonly phrases: readonly MetricPhrase[];
  /** Content stems of the description: a weak signal, used only when nothing else matched. */
  readonly descriptionStems: ReadonlySet<string>;
  /** What the number counts or measures (`usd`, `kwh`), as CML writes it; may be empty. */
  readonly unit?: string;
  /** Where the metric is declared, for a suggestion to the model's editor. */
  readonly span?: { readonly file: string; readonly line: number };
  /** Counts the rows of the reveal's base node, unfiltered: its words name the things the reveal is about ("trips"). */
  readonly rowCount?: boolean;
  /** The measure of the reveal's base node the metric reads (none for an expression or another node's measure). */
  readonly baseMeasure?: string;
  /**
   * The metric is a share: a ratio whose numerator is its denominator (`baseMeasure` of another
   * metric) where one dimension of the base node equals one value ("electric trips over trips").
   */
  readonly shareOf?: { readonly measure: string; readonly field: string; readonly value: string };
}

export interface IndexedDimension {
  /** Field id relative to the reveal's base node (`channel`, `customers.segment`, `ship_to.city`). */
  readonly field: string;
  readonly label: string;
  readonly type: string;
  /** The node that declares the dimension. */
  readonly node: string;
  /**
   * The join role the dimension is reached through (`ship_to` for `join ship_to: regions`): the same
   * node's dimension appears once per role, so a question's "to Texas" can be bound to its role.
   * Undefined on the base and on nodes joined without a role.
   */
  readonly role?: string;
  /** Declared on the base node itself: wins ties against a joined node's dimension of the same name. */
  readonly onBase: boolean;
  /** Stemmed phrases: name, label, synonyms, and for a joined node those qualified by node or role words. */
  readonly phrases: readonly (readonly string[])[];
  /** Stored value → the other words for it the model declares (`TX` → Texas), unstemmed. */
  readonly valueSynonyms: ReadonlyMap<string, readonly string[]>;
  /** Content stems of the description: verbs it uses ("Agency running the station") are grounded beside it. */
  readonly descriptionStems?: ReadonlySet<string>;
}

export interface IndexedReveal {
  readonly name: string;
  readonly domain: string;
  readonly label: string;
  /** Field id of the default time dimension (`created_at`), when the reveal has one. */
  readonly timeField?: string;
  /** Stems of the time dimension's id, label and synonyms (`shipped_at`, "Pickup time"): the event that dates every row. */
  readonly timeStems?: ReadonlySet<string>;
  readonly metrics: readonly IndexedMetric[];
  readonly dimensions: readonly IndexedDimension[];
  /** Every stem of a dimension phrase of this reveal: such words are explained in a question. */
  readonly dimensionStems: ReadonlySet<string>;
}

export interface CatalogIndex {
  readonly reveals: readonly IndexedReveal[];
  /** Inverse document frequency of metric phrase stems, documents being metrics. */
  readonly metricWeight: (stem: string) => number;
  /** Inverse document frequency of description stems. */
  readonly descriptionWeight: (stem: string) => number;
  /** Stems of metric phrases and dimension phrases of every reveal: the targets of typo correction. */
  readonly vocabulary: ReadonlySet<string>;
  /** Stems of metric phrases, across reveals. */
  readonly metricStems: ReadonlySet<string>;
  /** Stems of dimension phrases, across reveals. */
  readonly dimensionStems: ReadonlySet<string>;
}

/** Time grains a question can break down by ("by month"), in the words the lexicon reduces to. */
export const GRAIN_WORDS: ReadonlyMap<string, Granularity> = new Map<string, Granularity>([
  ['day', 'day'],
  ['week', 'week'],
  ['month', 'month'],
  ['quarter', 'quarter'],
  ['year', 'year'],
]);

function unique<T>(items: Iterable<T>): T[] {
  return [...new Set(items)];
}

function phraseKey(stems: readonly string[]): string {
  return stems.join(' ');
}

/**
 * The part a ratio measure takes of its denominator, when its numerator is that same measure (type and
 * expression) kept to the rows where one dimension of `node` equals one value: `\${bike_type} = 'electric'`.
 */
function shareOfRatio(node: SemanticNode, measure: Measure): IndexedMetric['shareOf'] {
  if (!measure.ratio) return undefined;
  const top = node.measures.get(measure.ratio.numerator);
  const bottom = node.measures.get(measure.ratio.denominator);
  if (!top?.filter || !bottom || bottom.filter || top.type !== bottom.type || JSON.stringify(top.sql ?? []) !== JSON.stringify(bottom.sql ?? [])) return undefined;
  const [field, condition, ...rest] = top.filter;
  if (rest.length > 0 || field?.kind !== 'dimension' || field.node !== node.name || field.role || condition?.kind !== 'text') return undefined;
  const value = /^\s*=\s*'((?:[^']|'')*)'\s*$/.exec(condition.text)?.[1];
  return value === undefined ? undefined : { measure: bottom.name, field: field.name, value: value.replaceAll("''", "'") };
}

function indexMetrics(model: SemanticModel, revealName: string): IndexedMetric[] {
  const reveal = model.reveals.get(revealName)!;
  return [...reveal.metrics.values()].map((metric) => {
    const candidates: MetricPhrase[] = [
      { stems: contentStems(identifierWords(metric.name)), source: 'name' },
      { stems: contentStems(metric.label), source: 'label' },
      ...metric.synonyms.map((synonym) => ({ stems: contentStems(synonym), source: 'synonym' as const })),
    ];
    const seen = new Set<string>();
    const phrases = candidates.filter((phrase) => {
      const key = phraseKey(phrase.stems);
      if (phrase.stems.length === 0 || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    const measure = metric.measure && !metric.measure.role && metric.measure.node === reveal.base ? model.nodes.get(reveal.base)?.measures.get(metric.measure.name) : undefined;
    const rowCount = measure?.type === 'count' && !measure.sql && !measure.filter;
    const shareOf = measure ? shareOfRatio(model.nodes.get(reveal.base)!, measure) : undefined;
    return {
      reveal: revealName,
      name: metric.name,
      label: metric.label,
      phrases,
      descriptionStems: new Set(contentStems(metric.description)),
      ...(metric.unit ? { unit: metric.unit } : {}),
      ...(metric.span ? { span: { file: metric.span.file, line: metric.span.line } } : {}),
      ...(rowCount ? { rowCount } : {}),
      ...(measure ? { baseMeasure: measure.name } : {}),
      ...(shareOf ? { shareOf } : {}),
    };
  });
}

interface Reached {
  readonly node: SemanticNode;
  /** The name the node is reached by (its own, or a join role); undefined for the base. */
  readonly path: string | undefined;
  /** The role join that reaches it, when it is reached through one. */
  readonly roleJoin: Join | undefined;
  /** The nearest role on the chain of joins to it (its own, or one it is reached beyond). */
  readonly role: string | undefined;
  /** The name of the node it is reached from. */
  readonly parent: string | undefined;
  /** The chain of joins to it crosses a role. */
  readonly viaRole: boolean;
}

/**
 * Nodes a reveal can reach from its base by following joins declared towards the "one" side
 * (many_to_one, one_to_one): breaking a metric down by such a node's dimension never fans rows out.
 * Each is reached under the name of its join: one entry per role of a role-playing join, and as the
 * query compiler reaches it (shortest chain of joins). A name reached by two chains of one length of
 * which one crosses a role (both `ship_from` and `ship_to` join on to `countries`) is left out, with
 * everything beyond it: which role it belongs to cannot be told. Listed depth-first, in the order
 * the joins are declared.
 */
export function reachableNodes(model: SemanticModel, base: string): Reached[] {
  const baseNode = model.nodes.get(base);
  if (!baseNode) return [];
  const root: Reached = { node: baseNode, path: undefined, roleJoin: undefined, role: undefined, parent: undefined, viaRole: false };
  const found = new Map<string, Reached & { depth: number }>([[base, { ...root, depth: 0 }]]);
  const ambiguous = new Set<string>();
  const joinsOf = (node: SemanticNode) => node.joins.filter((join) => join.relationship !== 'one_to_many' && model.nodes.has(join.to));
  // Breadth-first: depths and ambiguities as the compiler sees them.
  const queue = [base];
  for (let i = 0; i < queue.length; i++) {
    const key = queue[i]!;
    const parent = found.get(key)!;
    for (const join of joinsOf(parent.node)) {
      const alias = joinAlias(join);
      const role = isRoleJoin(join);
      const viaRole = role || parent.viaRole;
      const earlier = found.get(alias);
      if (earlier) {
        if (earlier.depth === parent.depth + 1 && earlier.parent !== key && (earlier.viaRole || viaRole)) ambiguous.add(alias);
        continue;
      }
      const roleJoin = role ? join : undefined;
      found.set(alias, { node: model.nodes.get(join.to)!, path: alias, roleJoin, role: role ? alias : parent.role, parent: key, viaRole, depth: parent.depth + 1 });
      queue.push(alias);
    }
  }
  const blocked = (key: string | undefined): boolean => key !== undefined && (ambiguous.has(key) || blocked(found.get(key)!.parent));
  // Depth-first for the order, as the index has always listed dimensions.
  const ordered: Reached[] = [];
  const listed = new Set<string>();
  const visit = (key: string): void => {
    const reached = found.get(key);
    if (!reached || listed.has(key)) return;
    listed.add(key);
    if (!blocked(key)) ordered.push(reached);
    for (const join of joinsOf(reached.node)) visit(joinAlias(join));
  };
  visit(base);
  return ordered;
}

/** Stemmed phrases of `texts`, each once, empty ones dropped. */
function phrasesOf(texts: readonly string[]): string[][] {
  return unique(texts.map((text) => phraseKey(contentStems(text))))
    .filter((key) => key !== '')
    .map((key) => key.split(' '));
}

/**
 * Words that name a joined node in a phrase such as "customer segment": its name and label; for a role,
 * the role's words and the join's synonyms instead ("ship to city", "destination city"), since the
 * node's own name would not tell the roles apart.
 */
function qualifierWords({ node, roleJoin }: Reached): string[][] {
  if (roleJoin) return phrasesOf([identifierWords(joinAlias(roleJoin)), ...(roleJoin.synonyms ?? [])]);
  return phrasesOf([identifierWords(node.name), node.label]);
}

function indexDimensions(model: SemanticModel, base: string): IndexedDimension[] {
  const dimensions: IndexedDimension[] = [];
  for (const reached of reachableNodes(model, base)) {
    const { node, path, role } = reached;
    const nodeWords = path === undefined ? [] : qualifierWords(reached);
    for (const dimension of node.dimensions.values()) {
      if (dimension.hidden) continue;
      // Time dimensions are asked for through a grain ("by month"); their labels ("Ordered at") would
      // otherwise read "by orders" as a breakdown by order date.
      if (dimension.type === 'date' || dimension.type === 'timestamp') continue;
      const own = phrasesOf([identifierWords(dimension.name), dimension.label, ...(dimension.synonyms ?? [])]);
      // A joined node's dimension can also be named with its node ("customer segment") or its role
      // ("destination city"); a role's own words name it too ("ship to" alone, "destination").
      // A role's words that already end in the dimension's ("sending country" for a country) name it as they are.
      const endsWith = (words: readonly string[], phrase: readonly string[]) => phrase.length <= words.length && phrase.every((stem, k) => words[words.length - phrase.length + k] === stem);
      const qualified = nodeWords.flatMap((words) => own.map((phrase) => (endsWith(words, phrase) ? [...words] : [...words, ...phrase])));
      dimensions.push({
        field: path === undefined ? dimension.name : `${path}.${dimension.name}`,
        label: dimension.label,
        type: dimension.type,
        node: node.name,
        ...(role ? { role } : {}),
        onBase: path === undefined,
        phrases: [...own, ...qualified],
        valueSynonyms: dimension.valueSynonyms ?? new Map(),
        ...(dimension.description ? { descriptionStems: new Set(contentStems(dimension.description)) } : {}),
      });
    }
  }
  return dimensions;
}

function inverseDocumentFrequency(documents: ReadonlyArray<ReadonlySet<string>>): (stem: string) => number {
  const frequency = new Map<string, number>();
  for (const document of documents) for (const stem of document) frequency.set(stem, (frequency.get(stem) ?? 0) + 1);
  const total = documents.length;
  // BM25's idf: rare words (a metric's own name) weigh more than words many metrics share ("order").
  return (stem) => {
    const n = frequency.get(stem) ?? 0;
    return Math.log(1 + (total - n + 0.5) / (n + 0.5));
  };
}

export function buildCatalogIndex(model: SemanticModel): CatalogIndex {
  const reveals: IndexedReveal[] = [...model.reveals.values()].map((reveal) => {
    const dimensions = indexDimensions(model, reveal.base);
    const timePrefix = reveal.time ? (reveal.time.role ?? reveal.time.node) : undefined;
    const timeField = reveal.time ? (timePrefix === reveal.base ? reveal.time.dimension : `${timePrefix}.${reveal.time.dimension}`) : undefined;
    const time = reveal.time ? model.nodes.get(reveal.time.node)?.dimensions.get(reveal.time.dimension) : undefined;
    const timeStems = time ? new Set(phrasesOf([identifierWords(time.name), time.label, ...(time.synonyms ?? [])]).flat()) : undefined;
    return {
      name: reveal.name,
      domain: reveal.domain,
      label: reveal.label,
      ...(timeField ? { timeField } : {}),
      ...(timeStems ? { timeStems } : {}),
      metrics: indexMetrics(model, reveal.name),
      dimensions,
      dimensionStems: new Set(dimensions.flatMap((dimension) => dimension.phrases.flat())),
    };
  });
  const metrics = reveals.flatMap((reveal) => reveal.metrics);
  const metricStems = new Set(metrics.flatMap((metric) => metric.phrases.flatMap((phrase) => phrase.stems)));
  const dimensionStems = new Set(reveals.flatMap((reveal) => [...reveal.dimensionStems]));
  return {
    reveals,
    metricWeight: inverseDocumentFrequency(metrics.map((metric) => new Set(metric.phrases.flatMap((phrase) => phrase.stems)))),
    descriptionWeight: inverseDocumentFrequency(metrics.map((metric) => metric.descriptionStems)),
    vocabulary: new Set([...metricStems, ...dimensionStems, ...GRAIN_WORDS.keys()]),
    metricStems,
    dimensionStems,
  };
}
