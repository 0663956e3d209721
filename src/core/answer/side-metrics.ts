// Verbs beside a role: "how many goals did WAS score at home", "How many matches did THE play away",
// "which away team scored the least away goals". A verb whose subject plays a side may say whose the
// number is, which the metric may not: goals in the matches WAS hosted are both sides' goals, goals
// WAS scored at home are the home side's. The model tells which metrics split by side: a metric named
// by a side word and another metric's name ("Home goals" beside Goals). So, with one side bound:
// - a metric no other splits by side ("matches played") is the same whoever did it: the verb may stand;
// - a side's own metric ("away goals" for the away team) may take the verb of that side only;
// - a metric that splits by side gives way to the bound side's own metric, when that metric grounds
//   the verb ("Goals scored by the home side" grounds "score").
// Otherwise verbs beside a role stay unaccounted for and the question is declined.
import type { IndexedMetric, IndexedReveal } from './catalog-index.js';
import { subjectSide } from './direction-verbs.js';
import { isMeasurementWord } from './measurement-words.js';
import type { QuestionShape, QuestionWord } from './question-shape.js';
import { stem } from './text.js';
import { dimensionRole } from './value-roles.js';
import { FAMILY_OF, SIDE_WORDS, type RoleSide } from './value-role-words.js';
import { venueSubjectSide } from './venue-verbs.js';

const SIDE_STEMS: ReadonlyMap<string, RoleSide> = new Map([...SIDE_WORDS].map(([word, side]) => [stem(word), side] as const));

/** The side `metric` is `base` for: a phrase of it is a phrase of `base` with one side word added ("home goals", "goals at home"). */
function sideOver(metric: IndexedMetric, base: IndexedMetric): RoleSide | undefined {
  if (metric === base) return undefined;
  for (const { stems } of metric.phrases) {
    const sides = stems.filter((s) => SIDE_STEMS.has(s));
    if (sides.length !== 1) continue;
    const rest = stems.filter((s) => !SIDE_STEMS.has(s)).join(' ');
    if (base.phrases.some((phrase) => phrase.stems.join(' ') === rest)) return SIDE_STEMS.get(sides[0]!);
  }
  return undefined;
}

export interface SideReading {
  /** Verbs beside the role may be grounded. */
  readonly verbs: boolean;
  /** The bound side's own metric, which answers instead of the one the question named. */
  readonly metric?: IndexedMetric;
}

/** How verbs beside the one side `sides` holds read for `metric` (see above); `leftover`: the words not yet accounted for. */
export function sideReading(reveal: IndexedReveal, metric: IndexedMetric, sides: ReadonlySet<RoleSide>, leftover: readonly QuestionWord[]): SideReading {
  if (sides.size !== 1) return { verbs: false };
  const side = [...sides][0]!;
  const own = reveal.metrics.map((base) => sideOver(metric, base)).find((found) => found !== undefined);
  if (own) return { verbs: own === side };
  const variants = reveal.metrics.map((candidate) => ({ candidate, side: sideOver(candidate, metric) })).filter((variant) => variant.side !== undefined);
  if (variants.length === 0) return { verbs: true };
  const mine = variants.find((variant) => variant.side === side)?.candidate;
  const grounds = mine && leftover.some((word) => isMeasurementWord(word) && (mine.descriptionStems.has(word.stem) || mine.descriptionStems.has(stem(word.raw))));
  return grounds ? { verbs: true, metric: mine } : { verbs: false };
}

/**
 * "which drop-off city shipped the most parcels", "which away club hosted the most games": a verb
 * between a ranking's subject and its ranking word that gives its subject the other side than the
 * subject's field plays. The ranking would be of the other end: the position of such a verb, if any.
 */
export function verbAgainstSubject(words: readonly QuestionWord[], shape: QuestionShape, subjectFields: readonly string[], reveal: IndexedReveal): number | undefined {
  const top = shape.top;
  if (!top || top.subjects === 0) return undefined;
  const sides = subjectFields.flatMap((field) => {
    const dimension = reveal.dimensions.find((d) => d.field === field);
    const role = dimension && dimensionRole(dimension);
    return role ? [role.side] : [];
  });
  if (sides.length === 0) return undefined;
  const subjectEnd = Math.max(...shape.dimensions.slice(0, top.subjects).flatMap((request) => request.positions));
  for (const word of words.slice(subjectEnd + 1, top.at)) {
    const said = subjectSide(word.raw) ?? venueSubjectSide(word.raw);
    if (said && sides.some((side) => FAMILY_OF[side] === FAMILY_OF[said] && side !== said)) return word.position;
  }
  return undefined;
}
