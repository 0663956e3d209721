// The rule behind every governed answer: each word of the question that could restrict or change the
// number must be accounted for by the plan: a metric word, a breakdown, a filter value or the cue
// that bound it to a role, the top-N grammar, or grammar known to restrict nothing. The planner calls
// this once, as its last gate; a plan that leaves a word unaccounted is declined, naming the word.
//
// Some words restrict by themselves whatever else the question says: negations ("not in Europe",
// "sin", "sauf", "ohne"), comparisons ("orders over $100", "más de", "über") and a second period
// ("since March", "letztes Jahr"). They are never explained by being a stop word or by a typo
// correction: only a plan that used them (a top-N's "highest", a role cue's "desde", a value that
// contains them) accounts for them.
import type { IndexedReveal } from './catalog-index.js';
import type { QuestionWord } from './question-shape.js';

const words = (text: string): string[] => text.split(' ');

const NEGATIONS = new Set(
  words(
    [
      'not never nor neither non except excepting excluding exclude excluded without other besides outside',
      'sin excepto salvo excluyendo excluido ni fuera',
      'sauf sans hors excepte exclu pas',
      'nicht kein keine keinen keiner keines ohne ausser ausgenommen ausserhalb',
      'nao sem exceto excluindo fora',
    ].join(' '),
  ),
);
const COMPARISONS = new Set(
  words(
    [
      'above below over under more less fewer greater exceeding exceeds least most between beyond',
      'mas menos mayor menor superior inferior encima debajo entre',
      'plus moins superieur superieure inferieur inferieure dessus dessous dela',
      'mehr weniger uber unter mindestens hochstens zwischen grosser kleiner',
      'mais acima abaixo maior',
    ].join(' '),
  ),
);
const PERIOD_WORDS = new Set(
  words(
    [
      'since until till before after ago during last past previous next',
      'desde hasta antes despues durante ultimo ultimos ultima ultimas pasado pasada',
      'depuis jusqu avant apres pendant dernier derniers derniere dernieres',
      'seit bis vor wahrend letzten letzte letztes letzter vergangenen vergangene',
      'ate depois passado passada',
    ].join(' '),
  ),
);

/** "no" is Spanish "not" but Portuguese "in the" ("receita no Brasil") and English "number" ("no. of orders"). */
function isNegatingNo(words: readonly QuestionWord[], position: number): boolean {
  const next = words[position + 1];
  if (!next) return true;
  if (next.raw === 'of') return false;
  return next.stop;
}

export function restrictsByItself(words: readonly QuestionWord[], position: number): boolean {
  const raw = words[position]!.raw;
  if (raw === 'no') return isNegatingNo(words, position);
  return NEGATIONS.has(raw) || COMPARISONS.has(raw) || PERIOD_WORDS.has(raw);
}

// "revenue per order", "Umsatz je Kunde": a ratio of two metrics, which no plan of metric totals expresses.
const RATIO_MARKERS = new Set(['per', 'pro', 'je', 'each', 'every', 'cada', 'chaque', 'jede', 'jeden', 'jedes', 'jeder']);
// "top 5 regions by revenue": after these, a metric word names what a top-N ranks by.
const RANKING_MARKERS = new Set(['by', 'por', 'par', 'nach', 'across']);

function startsDimensionPhrase(all: readonly QuestionWord[], start: number, reveal: IndexedReveal): boolean {
  return reveal.dimensions.some((dimension) => dimension.phrases.some((phrase) => phrase.every((stem, k) => all[start + k]?.stem === stem)));
}

/**
 * A breakdown marker followed by a metric word rather than a dimension ("revenue per order", "orders
 * by revenue"): the plan would give two totals for a ratio, or rank nothing. Only a top-N may say
 * "by <metric>".
 */
function markersBeforeMetrics(plan: PlanWords): string[] {
  const { words: all, grammar, metricWords, quote } = plan;
  const found: string[] = [];
  for (const word of all) {
    if (!grammar.has(word.position) || plan.ratioMarkers?.has(word.position)) continue;
    const ratio = RATIO_MARKERS.has(word.raw);
    if (!ratio && !(RANKING_MARKERS.has(word.raw) && !plan.ranked)) continue;
    let next = word.position + 1;
    while (next < all.length && all[next]!.stop) next++;
    // "by sales channel": a metric word qualifying the dimension phrase after it is no metric here.
    if (metricWords.has(next) && !startsDimensionPhrase(all, next + 1, plan.reveal)) found.push(quote([word.position, next]));
  }
  return found;
}

export interface PlanWords {
  readonly words: readonly QuestionWord[];
  /** Positions the question's grammar used: breakdown markers and phrases, top-N words and numbers. */
  readonly grammar: ReadonlySet<number>;
  readonly metricWords: ReadonlySet<number>;
  /** Values and the cues that bound them to a role. */
  readonly filterWords: ReadonlySet<number>;
  /** Fields the plan filters on: their names may appear beside the value ("the marketplace channel"). */
  readonly filterFields: readonly string[];
  /** Breakdowns the question asked for that no dimension of any reveal has, quoted. */
  readonly unknownBreakdowns: readonly string[];
  readonly reveal: IndexedReveal;
  readonly metricLabel: string;
  /** The plan is a top-N or bottom-N: "by <metric>" names what it ranks by. */
  readonly ranked: boolean;
  /** The question's words at these positions, quoted as typed. */
  readonly quote: (positions: readonly number[]) => string;
  /** Markers of a ratio the plan carries ("per trip": `per`): a metric after them is its divisor. */
  readonly ratioMarkers?: ReadonlySet<number>;
}

/** Why the plan does not answer the question as asked, or undefined when every word is accounted for. */
export function unaccountedReason(plan: PlanWords): string | undefined {
  const { words: all, grammar, metricWords, filterWords, reveal, metricLabel, quote } = plan;
  const used = (position: number) => grammar.has(position) || metricWords.has(position) || filterWords.has(position);

  const restricting = all.filter((word) => !used(word.position) && restrictsByItself(all, word.position)).map((word) => quote([word.position]));
  if (restricting.length > 0) {
    return `${restricting.join(', ')} would restrict or change the number in a way the governed plan does not express, so ${metricLabel} would not answer the question as asked.`;
  }

  const ratios = markersBeforeMetrics(plan);
  if (ratios.length > 0) {
    return `${ratios.join(', ')} asks for one metric per another or a ranking by a metric, which the governed plan does not express; ask for each metric, or for a top N.`;
  }

  const leftover = all.filter((word) => !word.stop && !used(word.position));
  const unexplained = [...leftover.filter((word) => !reveal.dimensionStems.has(word.stem)).map((word) => quote([word.position])), ...plan.unknownBreakdowns];
  if (unexplained.length > 0) return `Nothing in the governed catalog explains ${unexplained.join(', ')}, so ${metricLabel} would not answer the question.`;

  // A dimension named outside a breakdown is fine when it names a filter's field ("the marketplace
  // channel"); otherwise the plan would silently ignore it ("revenue channel"), so ask for "by …".
  const filterStems = new Set(reveal.dimensions.filter((d) => plan.filterFields.includes(d.field)).flatMap((d) => d.phrases.flat()));
  const unused = leftover.filter((word) => !filterStems.has(word.stem));
  if (unused.length > 0) {
    return `The question names ${unused.map((word) => quote([word.position])).join(', ')} without saying how to use it; to break ${metricLabel} down, ask 'by ${unused[0]!.raw}'.`;
  }
  return undefined;
}
