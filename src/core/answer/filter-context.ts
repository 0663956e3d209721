// The words around a filter value that belong to it rather than to a metric or a breakdown:
// - "by card", "by casual riders", "por tarjeta": a breakdown marker before a value introduces the
//   value (the payment, the rider type), not a breakdown by it;
// - "paid in the app", "using the app", "booked direct", "über die App": verbs and prepositions that
//   only lead to the value, accounted for by it;
// - metric words that describe the rows a value filters rather than ask for a second number: the
//   reveal's own things ("riding time of trips departing from Ferry Terminal"), a field's noun beside
//   its value ("electric bikes", "guests from Germany", "senders in Europe"), a verb that only binds a
//   value to its role ("transfers sent to Mexico"). Such a metric leaves the plan when another metric
//   is asked for, and its words are the filter's.
import type { CatalogIndex, IndexedDimension, IndexedReveal } from './catalog-index.js';
import { asksForAmount } from './headline-fit.js';
import type { MetricCandidate } from './metric-ranking.js';
import { CONNECTORS, type QuestionWord } from './question-shape.js';
import { findValueMatches, type BoundValue, type ValueLookup } from './value-filters.js';
import { PLACE_CUES } from './direction-verbs.js';
import { PRONOUNS } from './negation.js';
import { ARTICLES, DIRECTION_CUE_LIST } from './value-role-words.js';
import { cueBefore } from './value-roles.js';

const words = (text: string): string[] => text.split(' ');

/** Breakdown markers that may introduce a value instead ("trips by casual riders", "paying by card"). */
const VALUE_MARKERS = new Set(words('by por par'));

/** Words that lead to a value without restricting anything themselves. */
const INTRODUCERS = new Set(
  words(
    [
      'by via using use used uses paying paid pay pays booked book books made rode ride rides spent chose chosen selected received sent',
      'travelling traveling travelled traveled who whose through with',
      'por con mediante usando pagado pagada pagados pagadas reservado reservada reservados reservadas',
      'par avec via paye payes payee payees reserve reserves reservee reservees',
      'mit uber durch per bezahlt gebucht',
      'com pago paga pagos pagas reservado reservada usando',
      'tramite con usando pagato pagata pagati pagate prenotato prenotata prenotati prenotate',
    ].join(' '),
  ),
);
/** How far back from a value an introducer may stand (stop words and the field's words between). */
const INTRODUCER_REACH = 4;
/** How far from a value or its cue a field's noun may stand to be the value's ("electric bikes", "guests from Germany"). */
const NOUN_REACH = 3;

/** Positions where a value of one of `lookups` starts, with the positions of its words. */
function valueSpans(all: readonly QuestionWord[], lookups: readonly ValueLookup[]): Map<number, readonly number[]> {
  const spans = new Map<number, readonly number[]>();
  for (const lookup of lookups) for (const match of findValueMatches(all, new Set(), lookup)) spans.set(match.positions[0]!, match.positions);
  return spans;
}

function startsDimension(all: readonly QuestionWord[], position: number, index: CatalogIndex): boolean {
  return index.reveals.some((reveal) => reveal.dimensions.some((dimension) => dimension.phrases.some((phrase) => phrase.every((stem, k) => all[position + k]?.stem === stem))));
}

/** Words that open a clause describing the noun before them ("riders who are not members"). */
const RELATIVE_PRONOUNS = new Set(words('who that which whose'));
/** How far after its pronoun a clause may name its value ("who were not yet members"). */
const CLAUSE_REACH = 4;

/**
 * "by riders who are not members", "by patients that are self-pay": a field's noun that is no
 * dimension's whole name, then a clause naming a value. The clause says which rows; the noun is the
 * value's field, checked when the plan's words are accounted for.
 */
function describedByClause(all: readonly QuestionWord[], noun: number, spans: ReadonlyMap<number, readonly number[]>, index: CatalogIndex): boolean {
  const word = all[noun];
  if (!word || word.stop || !index.dimensionStems.has(word.stem) || startsDimension(all, noun, index)) return false;
  if (!RELATIVE_PRONOUNS.has(all[noun + 1]?.raw ?? '')) return false;
  for (let at = noun + 2; at < all.length && at - noun - 1 <= CLAUSE_REACH; at++) if (spans.has(at)) return true;
  return false;
}

/**
 * "paying by card", "by casual riders", "by mobile wallet": markers right before a value (articles
 * aside) that is no dimension's name, when a verb leads to the marker, the value's field names it
 * right after ("casual riders": the rider type), or the value is of several words. Alone ("shipments
 * by Swift") the marker may still ask for a breakdown: it stays one, and an unknown one is declined.
 * "by riders who are not members": a marker before a noun a clause describes (see above).
 */
export function valueMarkers(all: readonly QuestionWord[], lookups: readonly ValueLookup[], index: CatalogIndex): Set<number> {
  const spans = valueSpans(all, lookups);
  const found = new Set<number>();
  all.forEach((word, position) => {
    if (!VALUE_MARKERS.has(word.raw)) return;
    let next = position + 1;
    while (next < all.length && ARTICLES.has(all[next]!.raw)) next++;
    if (describedByClause(all, next, spans, index)) {
      found.add(position);
      return;
    }
    const span = spans.get(next);
    if (!span || startsDimension(all, next, index)) return;
    const led = position > 0 && INTRODUCERS.has(all[position - 1]!.raw) && !VALUE_MARKERS.has(all[position - 1]!.raw);
    const after = all[span.at(-1)! + 1];
    const named = after !== undefined && index.dimensionStems.has(after.stem) && !after.stop;
    if (led || named || span.length > 1) found.add(position);
  });
  return found;
}

/** Stems of the direction cues right before values ("docked at Stadium Gate"): words of a filter, whatever metric they spell. */
export function directionCueStems(all: readonly QuestionWord[], lookups: readonly ValueLookup[]): Set<string> {
  const stems = new Set<string>();
  for (const start of valueSpans(all, lookups).keys()) for (const position of cueBefore(all, start)?.positions ?? []) stems.add(all[position]!.stem);
  return stems;
}

/**
 * Introducers ("paid in the app", "using the app", "by card") before the first word of each filter
 * value. `negations`: the cues of values left out, passed over without counting ("by riders who are
 * not members").
 */
export function introducerWords(all: readonly QuestionWord[], valueStarts: readonly number[], fieldStems: ReadonlySet<string>, taken: ReadonlySet<number>, negations: ReadonlySet<number> = new Set()): Set<number> {
  const found = new Set<number>();
  for (const start of valueStarts) {
    for (let at = start - 1, steps = 0; at >= 0 && steps < INTRODUCER_REACH; at--, steps++) {
      const word = all[at]!;
      if (negations.has(at)) {
        steps--;
        continue;
      }
      if (taken.has(at) && !INTRODUCERS.has(word.raw)) break;
      if (INTRODUCERS.has(word.raw)) found.add(at);
      else if (!word.stop && !fieldStems.has(word.stem)) break;
    }
  }
  return found;
}

export interface MetricRefinement {
  /** The metrics kept, in the order given. */
  readonly metrics: readonly MetricCandidate[];
  /** Positions of the words of the metrics left out: the filters' words now. */
  readonly moved: ReadonlySet<number>;
}

interface RefineInput {
  readonly chosen: readonly MetricCandidate[];
  readonly words: readonly QuestionWord[];
  /** Content words a metric may have matched. */
  readonly content: readonly QuestionWord[];
  readonly reveal: IndexedReveal;
  readonly values: readonly BoundValue[];
  /** Positions of the values' words. */
  readonly valueWords: ReadonlySet<number>;
  /** Positions of the cues that bound values to their roles. */
  readonly cueWords: ReadonlySet<number>;
}

/** "per trip", "je Kunde": after these a metric word is a ratio's divisor, never words of the rows. */
const RATIO_MARKERS = new Set(words('per pro je each every cada chaque jede jeden jedes jeder'));
/** "by freight cost", "par expédition": after these a metric word is what a ranking or a ratio is by, unless a value follows it. */
const RANKING_MARKERS = new Set(words('by por par nach across'));

function markerBefore(all: readonly QuestionWord[], position: number): string | undefined {
  let at = position - 1;
  while (at >= 0 && all[at]!.stop) at--;
  const raw = at >= 0 ? all[at]!.raw : undefined;
  return raw !== undefined && (RATIO_MARKERS.has(raw) || RANKING_MARKERS.has(raw)) ? raw : undefined;
}

/** Metrics that only describe the rows the filters pick, left out when another metric is asked for (see above). */
export function refineMetrics(input: RefineInput): MetricRefinement {
  const { words: all, reveal, cueWords, valueWords } = input;
  const positionsOf = (candidate: MetricCandidate): number[] => input.content.filter((word) => candidate.covered.has(word.stem)).map((word) => word.position);
  const byField = new Map<string, IndexedDimension>(reveal.dimensions.map((dimension) => [dimension.field, dimension]));
  const fieldStems = new Set(input.values.flatMap((value) => byField.get(value.field)?.phrases.flat() ?? []));
  const anchors = [...valueWords, ...cueWords];
  const near = (position: number) => anchors.some((anchor) => Math.abs(anchor - position) <= NOUN_REACH);
  const leadsToValue = (position: number) => anchors.some((anchor) => anchor > position && anchor - position <= NOUN_REACH);
  const amount = asksForAmount(all.map((word) => word.raw).join(' '));
  // A metric word after "per" is a divisor; after "by", one unless it leads to a value ("by guests from Germany").
  const afterMarker = (position: number): boolean => {
    const marker = markerBefore(all, position);
    return marker !== undefined && (RATIO_MARKERS.has(marker) || !leadsToValue(position));
  };

  let kept = [...input.chosen];
  const moved = new Set<number>();
  const connected = (a: readonly number[], b: readonly number[]): boolean => {
    const from = Math.min(...a, ...b);
    const to = Math.max(...a, ...b);
    return all.some((word) => word.position > from && word.position < to && CONNECTORS.has(word.raw));
  };
  const drop = (test: (candidate: MetricCandidate, positions: readonly number[]) => boolean): void => {
    for (const candidate of [...kept]) {
      if (kept.length < 2) return;
      const positions = positionsOf(candidate);
      if (positions.length === 0 || positions.some(afterMarker) || !test(candidate, positions)) continue;
      const others = kept.filter((other) => other !== candidate);
      if (others.some((other) => connected(positionsOf(other), positions))) continue;
      kept = others;
      for (const position of positions) moved.add(position);
    }
  };
  // A verb that binds a value to its role ("sent to Mexico"), unless the question asks how much was sent.
  if (!amount) drop((_, positions) => positions.every((position) => cueWords.has(position)));
  // A field's noun beside its value: "electric bikes", "guests from Germany", "senders in Europe".
  drop((_, positions) => positions.every((position) => fieldStems.has(all[position]!.stem) && near(position)));
  // The reveal's own things after the metric asked for: "riding time of trips departing from …".
  drop((candidate) => candidate.metric.rowCount === true && candidate !== kept[0]);
  // The reveal's things named where no metric took them ("riding time of trips …"): the rows themselves.
  const things = new Set(reveal.metrics.filter((metric) => metric.rowCount).flatMap((metric) => metric.phrases.filter((phrase) => phrase.stems.length === 1).map((phrase) => phrase.stems[0]!)));
  const taken = new Set(kept.flatMap(positionsOf));
  for (const word of input.content) {
    if (!taken.has(word.position) && things.has(word.stem) && !afterMarker(word.position) && !kept.some((candidate) => candidate.metric.rowCount)) moved.add(word.position);
  }
  return { metrics: kept, moved };
}

const CUE_WORDS: ReadonlySet<string> = new Set([...DIRECTION_CUE_LIST.flatMap((cue) => cue.words), ...PLACE_CUES.flat()]);

/**
 * Words that may stand between a negation and the value it leaves out: grammar, role and place cues,
 * the reveal's field words and its own things ("excluding trips that started in the Harbour district").
 */
export function negationPassable(reveal: IndexedReveal): (word: QuestionWord) => boolean {
  const things = new Set(reveal.metrics.filter((metric) => metric.rowCount).flatMap((metric) => metric.phrases.flatMap((phrase) => phrase.stems)));
  return (word) => word.stop || ARTICLES.has(word.raw) || CUE_WORDS.has(word.raw) || PRONOUNS.has(word.raw) || reveal.dimensionStems.has(word.stem) || things.has(word.stem);
}
