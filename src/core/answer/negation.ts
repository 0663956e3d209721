// Values the question leaves out: "trips excluding electric bikes", "fare revenue except card
// payments", "trips that did not start at Central Station", "guests from countries other than
// Germany", "bookings at hotels outside Spain". A negation cue negates the first value after it (the
// words between may only be grammar, the value's role cue and field words, or the reveal's own things:
// "excluding trips that started in the Harbour district"), and the values joined to that one by "and"
// or "or". Each becomes a negated filter, which keeps the rows without a value (docs/queries.md): a
// trip whose bike type is unknown is not an electric one. A cue that reaches no value stays
// unaccounted for, and the question is declined ("room revenue excluding breakfast").
import type { Filter } from './value-filters.js';
import type { BoundValue, ValueMatch } from './value-filters.js';
import type { QuestionWord } from './question-shape.js';

const phrases = (text: string): string[][] => text.split(',').map((phrase) => phrase.trim().split(' '));

/** Negation cues, accents stripped as `normalise` does; longest first. */
const NEGATION_CUES: ReadonlyArray<readonly string[]> = [
  ...phrases('excluding, exclude, excludes, excluded, except, except for, other than, not, without, outside, outside of, apart from, aside from, but not, non'),
  ...phrases('excluyendo, excluidos, excluidas, excepto, salvo, sin, fuera de, a excepcion de, aparte de, no, otros que, distinto de, distintos de'),
  ...phrases('sauf, hors, sans, excepte, exceptes, exceptee, exceptees, a l exception de, en dehors de, autres que, autre que, pas, non'),
  ...phrases('ohne, ausser, ausgenommen, nicht, kein, keine, keinen, ausserhalb, abgesehen von'),
  ...phrases('exceto, excluindo, sem, fora de, nao, com excecao de, a excecao de, outros que'),
  ...phrases('escluso, esclusa, esclusi, escluse, escludendo, tranne, eccetto, senza, non, al di fuori di, fuori da, diversi da'),
].sort((a, b) => b.length - a.length);

/** Words that join further values to a negated one: "excluding OTA and corporate". */
const JOINERS = new Set('and or nor y o ni et ou und oder e ou'.split(' '));
/** Words after a negated value that only repeat it: "excluding cancelled ones". */
export const PRONOUNS = new Set(['ones', 'one']);
/** How many words a cue may stand before its value. */
const REACH = 7;

export interface Negation {
  /** Start positions of the values negated. */
  readonly values: ReadonlySet<number>;
  /** Positions of the cues and of the pronouns after negated values: accounted for by the filters. */
  readonly words: ReadonlySet<number>;
}

// Spanish "no" negates before a preposition ("no en Europa"); elsewhere it is Portuguese "in the"
// ("receita no TX") or part of a value ("no-show").
const NO_BEFORE = new Set('en de del a al para desde con por'.split(' '));

function cueAt(words: readonly QuestionWord[], start: number): readonly string[] | undefined {
  const cue = NEGATION_CUES.find((candidate) => candidate.every((word, k) => words[start + k]?.raw === word));
  if (cue?.length === 1 && cue[0] === 'no' && !NO_BEFORE.has(words[start + 1]?.raw ?? '')) return undefined;
  return cue;
}

/** Whether the words (as `normalise` writes them) hold a negation cue of any language. */
export function hasNegationCue(raws: readonly string[]): boolean {
  const words = raws.map((raw, position) => ({ raw, stem: raw, stop: false, corrected: false, position }));
  return words.some((_, start) => cueAt(words, start) !== undefined);
}

/**
 * The values `matches` names that a negation cue leaves out. `passable`: the words that may stand
 * between a cue and its value (see above). Only cues after `from` count: a negation before the
 * metric ("not loans for fiction") says nothing clear about which rows.
 */
export function findNegations(words: readonly QuestionWord[], matches: readonly ValueMatch[], passable: (word: QuestionWord) => boolean, from = 0): Negation {
  const starts = new Map(matches.map((match) => [match.positions[0]!, match] as const));
  const values = new Set<number>();
  const used = new Set<number>();
  for (let i = from; i < words.length; i++) {
    const cue = cueAt(words, i);
    if (!cue) continue;
    const cueEnd = i + cue.length;
    let at = cueEnd;
    while (at < words.length && at - cueEnd < REACH && !starts.has(at) && passable(words[at]!) && !cueAt(words, at)) at++;
    const first = starts.get(at);
    if (!first) {
      i = cueEnd - 1;
      continue;
    }
    for (let k = i; k < cueEnd; k++) used.add(k);
    // The negated value, then any joined to it.
    let match: ValueMatch | undefined = first;
    while (match) {
      values.add(match.positions[0]!);
      let next = match.positions.at(-1)! + 1;
      while (next < words.length && PRONOUNS.has(words[next]!.raw)) used.add(next++);
      if (next < words.length && JOINERS.has(words[next]!.raw)) next++;
      else break;
      match = starts.get(next);
    }
    i = at;
  }
  return { values, words: used };
}

/** Negated values as filters: one field's values left out together ("neither OTA nor corporate"). */
export function negatedFilters(values: readonly BoundValue[]): Filter[] {
  const byField = new Map<string, string[]>();
  for (const { field, value } of values) {
    const list = byField.get(field) ?? [];
    if (!list.includes(value)) list.push(value);
    byField.set(field, list);
  }
  return [...byField].map(([field, list]) => (list.length === 1 ? { field, operator: 'notEquals' as const, value: list[0]! } : { field, operator: 'notIn' as const, value: list }));
}
