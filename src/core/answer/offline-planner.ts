// The offline planner: a question (its period phrase already removed) and the governed catalog in, a
// governed plan or an honest "no governed match" out. No network and no language model. A plan is
// governed only when the metric matched by name, label or synonym (or description, reported as such),
// the best metric clearly beats the next one, every breakdown and filter resolves (a value shared by
// two roles to the role the question names), and, last, every word that could restrict or change the
// number is accounted for by the plan (accounted-words.ts).
import { unaccountedReason } from './accounted-words.js';
import { analysisMetricWords, completePlan, readAnalysis, type Analysis } from './analysis.js';
import { resolveBreakdown } from './breakdown-fields.js';
import { describedShare } from './share-reading.js';
import { directionCueStems, introducerWords, negationPassable, refineMetrics, valueMarkers } from './filter-context.js';
import { findNegations, negatedFilters } from './negation.js';
import type { AnswerPlan, GovernedPlan, NoMatch } from './plan.js';
import type { CatalogIndex, IndexedMetric, IndexedReveal } from './catalog-index.js';
import { trigramDice } from './fuzzy.js';
import { chooseMetrics, rankMetrics, type MetricCandidate } from './metric-ranking.js';
import { readGrammarValues } from './grammar-values.js';
import { CONNECTORS, isBreakdownMarker, isGrammarWord, isRankingWord, readShape, readWords, type QuestionShape, type QuestionWord } from './question-shape.js';
import { findValueMatches, filtersFrom, grammarValues, knownValues, valueLookup, type ValueLookup } from './value-filters.js';
import { NO_VALUES } from './value-index.js';
import { bindValues, cueMarkers, dimensionRole } from './value-roles.js';
import { withValueSynonyms } from './value-synonyms.js';
import { readValueWord } from './everyday-values.js';
import { groundedWords, groundsOf, suggestionText, synonymSuggestions } from './measurement-words.js';
import { markersInMetricNames, multiWordValuePositions, rankingWordsInMetricNames } from './metric-name-spans.js';
import { restatingWords, splitMetricWords } from './metric-words.js';
import { sideReading, verbAgainstSubject } from './side-metrics.js';
import { readQuestionText, typedAsCode, typedSpan, type QuestionText } from './question-text.js';
import { isNonRestricting, normalise } from './text.js';

// The planner's whole API from one module: callers build the index once per model and plan with it.
export { buildCatalogIndex, type CatalogIndex } from './catalog-index.js';
export type { ValueLookup } from './value-filters.js';

export interface OfflinePlanOptions {
  /** Only reveals of this domain are considered. */
  readonly domain?: string;
  /** Distinct values of the string dimensions of a reveal, by field id (looked up and cached by the caller). */
  readonly values?: (reveal: string) => ReadonlyMap<string, readonly string[]>;
  /** The value store of a reveal (a data-key scope's index); wins over `values` when it has one. */
  readonly lookup?: (reveal: string) => ValueLookup | undefined;
}

/** The value lookup of each reveal from the options: the store when given, else one built from plain values. */
export function revealLookups(reveals: readonly IndexedReveal[], options: Pick<OfflinePlanOptions, 'values' | 'lookup'>): Map<string, ValueLookup> {
  return new Map(
    reveals.map((reveal) => [reveal.name, withValueSynonyms(reveal, options.lookup?.(reveal.name) ?? (options.values ? valueLookup(reveal, options.values(reveal.name)) : NO_VALUES))]),
  );
}

const CLOSEST_COUNT = 3;

/** Quotes the question's words at `positions` as typed: declines quote nothing the question does not say. */
type Quote = (positions: readonly number[]) => string;

function quoter(text: QuestionText, words: readonly QuestionWord[]): Quote {
  return (positions) => `"${typedSpan(text, positions, (position) => words[position]!.raw)}"`;
}

/** The metrics to suggest: the best-ranked first, then those whose label looks most like the question. */
function closestMetrics(candidates: readonly MetricCandidate[], reveals: readonly IndexedReveal[], question: string): NoMatch['closest'] {
  const picked = new Map<string, { reveal: string; metric: string; label: string }>();
  const add = (reveal: string, metric: string, label: string): void => {
    if (picked.size < CLOSEST_COUNT && !picked.has(`${reveal}.${metric}`)) picked.set(`${reveal}.${metric}`, { reveal, metric, label });
  };
  for (const candidate of candidates) add(candidate.metric.reveal, candidate.metric.name, candidate.metric.label);
  if (picked.size < CLOSEST_COUNT) {
    const text = normalise(question);
    const bySimilarity = reveals
      .flatMap((reveal) => reveal.metrics)
      .map((metric) => ({ metric, similarity: trigramDice(text, normalise(metric.label)) }))
      .sort((a, b) => b.similarity - a.similarity);
    for (const { metric } of bySimilarity) add(metric.reveal, metric.name, metric.label);
  }
  return [...picked.values()];
}

const roleStems = new WeakMap<ValueLookup, Map<string, ReadonlySet<string>>>();

/** First stems of the values of `reveal`'s dimensions that play a role (origin, buyer, home team); cached per lookup. */
function roleValueStems(reveal: IndexedReveal, lookup: ValueLookup): ReadonlySet<string> {
  const perReveal = roleStems.get(lookup) ?? new Map<string, ReadonlySet<string>>();
  roleStems.set(lookup, perReveal);
  let stems = perReveal.get(reveal.name);
  if (!stems) {
    const sided = new Set(reveal.dimensions.filter((dimension) => dimensionRole(dimension) !== undefined).map((dimension) => dimension.field));
    stems = lookup.firstStems(sided);
    perReveal.set(reveal.name, stems);
  }
  return stems;
}

/** A set that holds what any of `sets` holds, without copying them. */
function anyOf(sets: ReadonlyArray<ReadonlySet<string>>): Pick<ReadonlySet<string>, 'has'> & { readonly size: number } {
  return { has: (stem) => sets.some((set) => set.has(stem)), size: sets.reduce((sum, set) => sum + set.size, 0) };
}

/** A value made of grammar words only, as stored, whose first stem is `stem`. */
function storedValue(stem: string, lookups: readonly ValueLookup[]): string | undefined {
  for (const lookup of lookups) {
    const phrase = lookup.phrases([stem]).find((candidate) => candidate.grammar);
    if (phrase) return phrase.value;
  }
  return undefined;
}

/**
 * "How many orders were refunded", "rainy days": two metrics side by side where the words of one are
 * also a value of the reveal (status 'refunded', condition 'rain') describe the other's rows; "orders
 * and refunds" joins two metrics. Without a connector between them, the metric whose every word is a
 * value gives way to the filter; when each of them could, nothing is dropped and the plan stays two
 * metrics (the accounted-for check and the answer then show both).
 */
function valuesOverMetrics(chosen: readonly MetricCandidate[], words: readonly QuestionWord[], content: readonly QuestionWord[], lookup: ValueLookup): MetricCandidate[] {
  if (chosen.length < 2 || words.some((word) => CONNECTORS.has(word.raw))) return [...chosen];
  const readsAsValue = (candidate: MetricCandidate): boolean => {
    const own = content.filter((word) => candidate.covered.has(word.stem));
    if (own.length === 0) return false;
    // "fuel cost of failed deliveries": the metric's words are together one value of several words.
    if (lookup.phrases(own.map((word) => word.stem)).some((phrase) => phrase.stems.length === own.length && own.length > 1)) return true;
    return own.every((word) => lookup.phrases([word.stem]).some((phrase) => phrase.stems.length === 1));
  };
  const values = chosen.filter(readsAsValue);
  if (values.length !== 1) return [...chosen];
  return chosen.filter((candidate) => candidate !== values[0]);
}

function firstMention(candidate: MetricCandidate, words: readonly QuestionWord[]): number {
  const found = words.find((word) => !word.stop && candidate.covered.has(word.stem));
  return found ? found.position : words.length;
}

export function planOffline(question: string, index: CatalogIndex, options: OfflinePlanOptions = {}): AnswerPlan {
  const reveals = options.domain === undefined ? index.reveals : index.reveals.filter((reveal) => reveal.domain === options.domain);
  const noMatch = (reason: string, candidates: readonly MetricCandidate[] = [], suggestions: NoMatch['suggestions'] = []): NoMatch => ({
    kind: 'no_match',
    reason,
    closest: closestMetrics(candidates, reveals, question),
    ...(suggestions.length > 0 ? { suggestions } : {}),
  });
  if (reveals.length === 0) return noMatch(`No governed reveal belongs to the domain "${options.domain}".`);

  const lookups = revealLookups(reveals, options);
  const allMetrics = index.reveals.flatMap((reveal) => reveal.metrics);
  const distinctLookups = [...new Set(lookups.values())];
  const known = knownValues(distinctLookups);
  const readings = readGrammarValues(question, grammarValues(distinctLookups), isGrammarWord, isRankingWord);
  const words = readWords(question, index, known, readings);
  const text = readQuestionText(question, words.length);
  const quote = quoter(text, words);
  const unsure = [...readings].filter(([, reading]) => reading === 'ambiguous').map(([position]) => words[position]!);
  if (unsure.length > 0) {
    const stored = unsure.map((word) => storedValue(word.stem, distinctLookups) ?? word.raw);
    return noMatch(`${unsure.map((word) => quote([word.position])).join(', ')} could be a word of the sentence or the value ${stored.join(', ')}; to filter on it, write it as ${stored.join(', ')}, otherwise rephrase without it.`);
  }
  const roleValues = anyOf(reveals.map((reveal) => roleValueStems(reveal, lookups.get(reveal.name)!)));
  const notMarkers = new Set([
    // "against POR": a stored code typed as one ("POR", "PAR", "DER") is a value, not a breakdown marker.
    ...words.filter((word) => known.has(word.stem) && typedAsCode(text, word.position)).map((word) => word.position),
    ...cueMarkers(words, isBreakdownMarker, (position) => roleValues.has(words[position]!.stem)),
    ...markersInMetricNames(words, index),
    ...valueMarkers(words, distinctLookups, index),
  ]);
  const shape = readShape(words, index, notMarkers);
  // "were placed", "came in", "se registraron": words that restrict nothing, unless the catalog knows them.
  const raws = words.map((word) => word.raw);
  const restrictsNothing = (word: QuestionWord): boolean =>
    !word.corrected && isNonRestricting(raws, word.position) && !index.vocabulary.has(word.stem) && !known.has(word.stem);
  const content = words.filter((word) => !word.stop && !shape.consumed.has(word.position) && !restrictsNothing(word));
  // Values of several words ("small business", "North America") are too specific to be metric words.
  const reserved = multiWordValuePositions(words, shape.consumed, [...new Set(lookups.values())], index);
  // "per trip": a divisor's words are not the metric asked for.
  const analysis = readAnalysis(words, shape, index, reveals);
  const ranked = rankingWordsInMetricNames(words, shape, index);
  const rankedWords = [...content.filter((word) => !reserved.has(word.position) && !analysis.reserved.has(word.position)), ...ranked].sort((a, b) => a.position - b.position);
  const candidates = rankMetrics(rankedWords.map((word) => word.stem), reveals, index);
  const choice = chooseMetrics(candidates);

  if (choice.kind === 'none') {
    if (content.length === 0 && shape.dimensions.length === 0) return noMatch('The question names no metric.');
    const named = [...content.map((word) => quote([word.position])), ...shape.dimensions.map((d) => quote(d.positions))];
    return noMatch(`No governed metric matches ${named.join(', ')}.`);
  }
  if (choice.kind === 'ambiguous') {
    const { first, second } = choice;
    return noMatch(`The question is ambiguous: it could mean ${first.metric.label} (${first.metric.reveal}) or ${second.metric.label} (${second.metric.reveal}). Please name one.`, [first, second, ...candidates]);
  }
  if (choice.kind === 'mixed') {
    const { first, second } = choice;
    // "trips docked at Stadium Gate": a verb that binds a value to its role, whatever metric it spells.
    const cueStems = directionCueStems(words, distinctLookups);
    // "refunds for emergency visits": "visits" names a metric of the care reveal and the visit a
    // refund belongs to in billing. The reveal that explains the other metric's words wins.
    for (const [own, other] of [[first, second], [second, first]] as const) {
      const reveal = reveals.find((r) => r.name === own.metric.reveal)!;
      const lookup = lookups.get(reveal.name)!;
      if (![...other.covered].every((stem) => reveal.dimensionStems.has(stem) || lookup.hasStem(stem) || cueStems.has(stem))) continue;
      const alone = chooseMetrics(candidates.filter((candidate) => candidate.metric.reveal === reveal.name));
      if (alone.kind !== 'chosen') continue;
      const plan = planOnReveal({ reveal, metrics: alone.metrics, words, text, quote, shape, content, reserved, analysis, lookup: lookups.get(reveal.name)!, candidates, allMetrics, noMatch });
      if (plan.kind === 'governed') return plan;
    }
    return noMatch(`${first.metric.label} (${first.metric.reveal}) and ${second.metric.label} (${second.metric.reveal}) come from different reveals; please ask about one at a time.`, candidates);
  }

  const reveal = reveals.find((r) => r.name === choice.reveal)!;
  return planOnReveal({ reveal, metrics: choice.metrics, words, text, quote, shape, content, reserved, analysis, lookup: lookups.get(reveal.name)!, candidates, allMetrics, noMatch });
}

interface RevealAttempt {
  readonly reveal: IndexedReveal;
  readonly metrics: readonly MetricCandidate[];
  readonly words: readonly QuestionWord[];
  readonly text: QuestionText;
  readonly quote: Quote;
  readonly shape: QuestionShape;
  /** Content words not used up by the grammar. */
  readonly content: readonly QuestionWord[];
  /** Positions of values of several words, kept from metric matching. */
  readonly reserved: ReadonlySet<number>;
  /** What the question asks beyond metrics, breakdowns and filters ("per trip"). */
  readonly analysis: Analysis;
  readonly lookup: ValueLookup;
  readonly candidates: readonly MetricCandidate[];
  /** Every metric the question could name, for words that only one of them has. */
  readonly allMetrics: readonly IndexedMetric[];
  readonly noMatch: (reason: string, candidates?: readonly MetricCandidate[], suggestions?: NoMatch['suggestions']) => NoMatch;
}

/** The plan over one reveal once its metrics are chosen: every other word must be a filter or a breakdown. */
function planOnReveal(attempt: RevealAttempt): AnswerPlan {
  const { reveal, words, shape, content, reserved, candidates, noMatch, quote } = attempt;
  const chosen = valuesOverMetrics([...attempt.metrics].sort((a, b) => firstMention(a, words) - firstMention(b, words)), words, content, attempt.lookup);
  // A description is a weak signal ("home win rate" read in "goals per match: … wins at home …"): it
  // may suggest a metric, never govern an answer.
  const described = chosen.find((candidate) => candidate.matchedBy === 'description');
  if (described) {
    return noMatch(`${described.metric.label} (${described.metric.reveal}) was recognised only from its description, which is not enough for a governed answer; to get it, ask for it by name.`, [described, ...candidates]);
  }
  const { metricWords, repeats } = splitMetricWords(
    chosen,
    content.filter((word) => !reserved.has(word.position)),
  );
  for (const position of analysisMetricWords(attempt.analysis)) metricWords.add(position);

  // Metric words win over values: "completed orders" is the metric, not orders filtered on status.
  const found = findValueMatches(words, new Set([...shape.consumed, ...metricWords]), attempt.lookup);
  // "reading" the city or the word (everyday-values.ts): an everyday word is no filter, an unsure one no answer.
  const matches = [];
  for (const match of found) {
    const reading = readValueWord(match, words, attempt.text, reveal);
    if (reading === 'everyday') continue;
    if (reading === 'unsure') {
      const { field, value } = match.candidates[0]!;
      const label = (reveal.dimensions.find((d) => d.field === field)?.label ?? field).toLowerCase();
      return noMatch(`${quote(match.positions)} could be the ${label} ${value} or the everyday word; to filter on the ${label}, write ${value} with its capital in a question that uses lower case, or say 'the ${label} ${value}'; otherwise rephrase without it.`, candidates);
    }
    matches.push(match);
  }
  for (const position of repeats) if (!matches.some((match) => match.positions.includes(position))) metricWords.add(position);
  // "excluding OTA", "did not start at Central Station": values left out, as negated filters.
  const negation = findNegations(words, matches, negationPassable(reveal), Math.min(...metricWords));
  const binding = bindValues(matches, words, reveal.dimensions, quote, negation.values);
  if (binding.kind === 'undecided') return noMatch(binding.reason, candidates);
  const filters = [...filtersFrom(binding.values.filter((value) => !value.negated)), ...negatedFilters(binding.values.filter((value) => value.negated))];
  const valueWords = new Set(matches.flatMap((match) => match.positions));
  const filterWords = new Set([...valueWords, ...binding.cueWords, ...negation.words]);
  // Metric words that only describe the rows the filters pick ("trips departing from …", "electric bikes").
  const refined = refineMetrics({ chosen, words, content: content.filter((word) => !reserved.has(word.position)), reveal, values: binding.values, valueWords, cueWords: binding.cueWords });
  for (const position of refined.moved) {
    metricWords.delete(position);
    filterWords.add(position);
  }
  const fieldStems = new Set(binding.values.flatMap((value) => reveal.dimensions.find((d) => d.field === value.field)?.phrases.flat() ?? []));
  for (const position of introducerWords(words, matches.map((match) => match.positions[0]!), fieldStems, new Set([...metricWords, ...shape.consumed]), negation.words)) filterWords.add(position);
  let kept = refined.metrics;

  const dimensions: string[] = [];
  for (const request of shape.dimensions) {
    // A breakdown no reveal has is an unaccounted word: the final gate names it with the others.
    if (request.unknown) continue;
    const resolved = resolveBreakdown(request, reveal);
    if (resolved.kind === 'ambiguous') return noMatch(resolved.reason, candidates);
    if (resolved.kind === 'none') return noMatch(`${reveal.label} cannot be broken down by ${quote(request.positions)}.`, candidates);
    if (!dimensions.includes(resolved.field)) dimensions.push(resolved.field);
  }

  // The last gate: every word that could restrict or change the number is accounted for by the plan.
  // Words that restrict nothing ("were placed", "came in") were left out of `content`: accounted for.
  const inContent = new Set(content.map((word) => word.position));
  const restrictNothing = words.filter((word) => !word.stop && !shape.consumed.has(word.position) && !inContent.has(word.position)).map((word) => word.position);
  const leftover = () => content.filter((word) => !metricWords.has(word.position) && !filterWords.has(word.position));
  // "energy drawn", "sales in dollars": words the metric's description or unit grounds (measurement-words.ts).
  // Beside a role ("did WAS score at home") a verb may say whose the number is: side-metrics.ts decides.
  const sides = new Set([...filters.map((filter) => filter.field), ...dimensions].flatMap((field) => {
    const dimension = reveal.dimensions.find((d) => d.field === field);
    const role = dimension && dimensionRole(dimension);
    return role ? [role.side] : [];
  }));
  const side = sides.size > 0 && kept.length === 1 ? sideReading(reveal, kept[0]!.metric, sides, leftover()) : undefined;
  if (side?.metric) kept = [{ ...kept[0]!, metric: side.metric }];
  const verbs = sides.size === 0 || side?.verbs === true;
  const headline = kept[0]!;
  const subjects = shape.top ? shape.dimensions.slice(0, shape.top.subjects).map((request) => resolveBreakdown(request, reveal)) : [];
  const against = verbAgainstSubject(words, shape, subjects.flatMap((resolved) => (resolved.kind === 'field' ? [resolved.field] : [])), reveal);
  if (against !== undefined) return noMatch(`${quote([against])} says the other end of what the question ranks, which the ranking would not follow; ask by the other field, or without that verb.`, candidates);
  const chosenMetrics = side?.metric ? [side.metric] : chosen.map((candidate) => candidate.metric);
  // "Canadian energy consumption": a word of the metric's own name restates it (verbs as above).
  if (verbs) for (const position of restatingWords(leftover(), chosenMetrics, attempt.allMetrics)) metricWords.add(position);
  const grounded = groundedWords(leftover(), words, chosenMetrics, groundsOf(reveal, words, shape, [...filters.map((filter) => filter.field), ...dimensions], verbs));
  const grammar = new Set([...shape.consumed, ...restrictNothing, ...grounded, ...attempt.analysis.grammar]);
  const unaccounted = unaccountedReason({
    words,
    grammar,
    metricWords,
    filterWords,
    filterFields: filters.map((filter) => filter.field),
    // "per dollar sent": a unit the ratio reading took is no breakdown.
    unknownBreakdowns: shape.dimensions.filter((request) => request.unknown && !request.positions.every((p) => attempt.analysis.reserved.has(p))).map((request) => quote(request.positions)),
    reveal,
    metricLabel: headline.metric.label,
    ranked: shape.top !== undefined,
    quote,
    ratioMarkers: attempt.analysis.grammar,
  });
  if (unaccounted) {
    const unexplained = leftover().filter((word) => !grammar.has(word.position));
    const suggestions = !verbs ? [] : synonymSuggestions(unexplained, headline.metric, (word) => typedSpan(attempt.text, [word.position], () => word.raw));
    return noMatch(`${unaccounted}${suggestionText(suggestions, headline.metric.label)}`, candidates, suggestions);
  }
  if (shape.top && dimensions.length === 0) {
    return noMatch(`The question asks for a top ${shape.top.limit} but not of what (for example 'top ${shape.top.limit} regions').`, candidates);
  }
  // "which branch had the most loans by month" asks for a ranking within each month; one sorted,
  // limited query would return the single best branch-month instead. Say so rather than answer.
  if (shape.top && shape.dimensions.length > Math.max(shape.top.subjects, 1)) {
    const within = shape.dimensions.slice(Math.max(shape.top.subjects, 1)).map((request) => quote(request.positions));
    return noMatch(`A ranking within each ${within.join(', ')} cannot be answered by one governed query; ask for the ranking overall, or for the breakdown without a ranking.`, candidates);
  }

  const plan: GovernedPlan = {
    kind: 'governed',
    reveal: reveal.name,
    metrics: kept.map((candidate) => candidate.metric.name),
    dimensions,
    filters,
    ...(shape.top ? { sort: { field: headline.metric.name, direction: shape.top.direction }, limit: shape.top.limit } : {}),
    matchedBy: headline.matchedBy,
  };
  const valueAt = new Map<string, number>();
  for (const value of binding.values) valueAt.set(value.field, Math.min(valueAt.get(value.field) ?? Number.POSITIVE_INFINITY, value.at ?? Number.POSITIVE_INFINITY));
  const completed = completePlan(plan, attempt.analysis, {
    metric: (name) => reveal.metrics.find((metric) => metric.name === name)?.label ?? name,
    filterAt: (field) => valueAt.get(field) ?? Number.POSITIVE_INFINITY,
    baseMeasure: (name) => reveal.metrics.find((metric) => metric.name === name)?.baseMeasure,
    describedShare: () => describedShare([...new Set(words.filter((word) => !word.stop && !shape.consumed.has(word.position)).map((word) => word.stem))], reveal.metrics),
  });
  return completed.kind === 'plan' ? completed.plan : noMatch(completed.reason, candidates);
}
