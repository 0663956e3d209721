// Finds the period a plain-language question names ("revenue last week", "ventas del mes pasado",
// "Umsatz im Q2 2024") and resolves it here, on the server, into a half-open date range in the workspace
// time zone. Planners only ever name periods; turning words into dates in one place keeps every answer
// auditable through its token and range. The words live in period-lexicon.ts.
import { addUnits, assertTimeZone, startOf, wallClock, type PeriodUnit } from '../semantic/time.js';
import {
  CALENDAR_UNITS,
  COUNTED_UNITS,
  LAST_AFTER_COUNT,
  LAST_BEFORE_COUNT,
  MONTH_NAMES,
  QUARTER_LETTER,
  QUARTER_NOUN,
  TODAY,
  YEAR_MARKERS,
  YEAR_NOUNS,
  YESTERDAY,
  lastUnitForms,
  thisUnitForms,
  toDateForms,
  type CalendarUnit,
} from './period-lexicon.js';
import {
  BARE_YEAR,
  NUMBER_START,
  OF,
  QUARTER_ORDINAL,
  SEPARATOR,
  WORDED_YEAR,
  WORD_START,
  YEAR_END,
  alternation,
  isQuantityAfter,
  isQuantityBefore,
  month,
  quarter,
  quarterFromOrdinal,
  rule,
  year,
  type Clock,
  type Range,
  type Rule,
} from './period-rule.js';
import { HALF_RULES } from './period-halves.js';
import { RANGE_RULES, openRangeRules, type PeriodAt } from './period-ranges.js';
import type { ResolvedPeriod } from './plan.js';

/** The fixed tokens, and the shapes of the tokens that carry a number. */
export const PERIOD_TOKENS: readonly string[] = [
  'today', 'yesterday',
  'this_week', 'last_week', 'this_month', 'last_month', 'this_quarter', 'last_quarter', 'this_year', 'last_year',
  'week_to_date', 'month_to_date', 'quarter_to_date', 'year_to_date',
  'last_<n>_days', 'last_<n>_weeks', 'last_<n>_months', 'last_<n>_quarters', 'last_<n>_years',
  'YYYY_MM', 'YYYY_qN', 'YYYY_hN', 'YYYY', 'this_year_hN', 'last_year_hN',
  'YYYY_MM..YYYY_MM', 'YYYY_qN..YYYY_qN', 'YYYY_hN..YYYY_hN', 'YYYY..YYYY',
  'since_YYYY_MM', 'since_YYYY_qN', 'since_YYYY_hN', 'since_YYYY', 'since_yesterday',
  'since_last_week', 'since_last_month', 'since_last_quarter', 'since_last_year', 'since_last_year_hN',
];

const TOKEN_SHAPES = PERIOD_TOKENS.map(
  (documented) =>
    new RegExp(
      `^${documented
        .replaceAll('.', '\\.')
        .replace('<n>', '[1-9]\\d*')
        .replaceAll('YYYY', '\\d{4}')
        .replaceAll('MM', '(?:0[1-9]|1[0-2])')
        .replaceAll('qN', 'q[1-4]')
        .replaceAll('hN', 'h[12]')}$`,
      'u',
    ),
);

/** Whether `token` has one of the documented shapes of `PERIOD_TOKENS`. */
export function isPeriodToken(token: string): boolean {
  return TOKEN_SHAPES.some((shape) => shape.test(token));
}

const thisPeriod = (unit: PeriodUnit, token: string) => (_m: RegExpExecArray, { today, tomorrow }: Clock): Range => ({
  token,
  start: startOf(unit, today),
  end: tomorrow,
});

/** The `count` complete units before the current one: the current, unfinished unit is left out. */
function previousPeriods(unit: PeriodUnit, count: number, token: string, { today }: Clock): Range {
  const end = startOf(unit, today);
  return { token, start: addUnits(unit, end, -count), end };
}

function relativeRules(unit: CalendarUnit): Rule[] {
  return [
    rule(toDateForms(unit), thisPeriod(unit, `${unit}_to_date`)),
    rule(thisUnitForms(unit), thisPeriod(unit, `this_${unit}`)),
    rule(lastUnitForms(unit), (_m, clock) => previousPeriods(unit, 1, `last_${unit}`, clock)),
  ];
}

const UNIT_WORDS = Object.entries(COUNTED_UNITS) as Array<[PeriodUnit, string]>;
const UNIT_TESTS = UNIT_WORDS.map(([unit, words]) => [unit, new RegExp(`^(?:${words})$`, 'u')] as const);
const ANY_UNIT = `(${UNIT_WORDS.map(([, words]) => words).join('|')})`;

function lastCount(countText: string | undefined, unitText: string | undefined, clock: Clock): Range | undefined {
  const count = Number(countText);
  const unit = UNIT_TESTS.find(([, test]) => test.test(unitText ?? ''))?.[0];
  if (!unit || !Number.isInteger(count) || count < 1) return undefined;
  return previousPeriods(unit, count, `last_${count}_${unit}s`, clock);
}


const MONTH_WORDS = alternation(Object.keys(MONTH_NAMES));

/**
 * "2024", "in 2024", "im Jahr 2024", "no ano de 2024", "nell'anno 2024". A number after a year word or in/for/during (and
 * their translations) is a year; a bare one is unless the words around it make it a quantity.
 */
const YEAR_RULE: Rule = {
  pattern: new RegExp(
    `${NUMBER_START}(?:(${YEAR_MARKERS})\\s+|(?:nell|dell)')?(?:(?:the|el|la|das|o|il)\\s+|l')?(?:(${YEAR_NOUNS})\\s+(?:${OF}\\s+)?)?${BARE_YEAR}${YEAR_END}`,
    'gu',
  ),
  resolve(match, _clock, folded) {
    const [text, marker, yearNoun, yearText] = match;
    if (isQuantityAfter(folded, match.index + text.length)) return undefined;
    const explicit = marker !== undefined || yearNoun !== undefined;
    if (!explicit && isQuantityBefore(folded, match.index)) return undefined;
    return year(Number(yearText));
  },
};

const BASE_RULES: readonly Rule[] = [
  rule(TODAY, (_m, { today, tomorrow }) => ({ token: 'today', start: today, end: tomorrow })),
  rule(YESTERDAY, (_m, { today }) => ({ token: 'yesterday', start: addUnits('day', today, -1), end: today })),
  ...CALENDAR_UNITS.flatMap(relativeRules),
  rule(`(?:${LAST_BEFORE_COUNT})\\s+(\\d{1,4})\\s+${ANY_UNIT}`, (m, clock) => lastCount(m[1], m[2], clock)),
  rule(`(\\d{1,4})\\s+(?:${LAST_AFTER_COUNT})\\s+${ANY_UNIT}`, (m, clock) => lastCount(m[1], m[2], clock)),
  // March 2025, Mar. 2025, marzo de 2025, März 2025, março de 2025
  rule(`(${MONTH_WORDS})\\.?${SEPARATOR}${WORDED_YEAR}`, (m) => month(Number(m[2]), MONTH_NAMES[m[1]!]!), WORD_START, YEAR_END),
  // 2025-03, 2025/03 (but not the date 2025-03-15)
  rule(`${BARE_YEAR}[-/](0[1-9]|1[0-2])`, (m) => month(Number(m[1]), Number(m[2])), NUMBER_START, '(?![\\p{L}\\p{N}_]|[-/.]\\p{N})'),
  // 03/2025, 03.2025
  rule(`(0?[1-9]|1[0-2])[/.]${BARE_YEAR}`, (m) => month(Number(m[2]), Number(m[1])), NUMBER_START, YEAR_END),
  // Q2 2024, Q2/2024, T2 de 2024
  rule(`${QUARTER_LETTER}([1-4])${SEPARATOR}${WORDED_YEAR}`, (m) => quarter(Number(m[2]), Number(m[1])), WORD_START, YEAR_END),
  // 2024 Q2, 2024-Q2, 2024Q2
  rule(`${WORDED_YEAR}\\s*[-/]?\\s*${QUARTER_LETTER}([1-4])`, (m) => quarter(Number(m[1]), Number(m[2])), NUMBER_START),
  // second quarter of 2024, 2º trimestre de 2024, zweites Quartal 2024, 2. Quartal 2024
  rule(
    `(${QUARTER_ORDINAL})\\s+(?:${QUARTER_NOUN})\\s+(?:${OF}\\s+)?${WORDED_YEAR}`,
    (m) => {
      const quarterNumber = quarterFromOrdinal(m[1]!);
      return quarterNumber === undefined ? undefined : quarter(Number(m[2]), quarterNumber);
    },
    WORD_START,
    YEAR_END,
  ),
  YEAR_RULE,
  ...HALF_RULES,
];

const STICKY_RULES = BASE_RULES.map((base) => ({ ...base, pattern: new RegExp(base.pattern.source, 'uy') }));

/** The longest period a base rule reads starting exactly at `index`: the start of an open range. */
const periodAt: PeriodAt = (folded, index, clock) => {
  let best: (Range & { length: number }) | undefined;
  for (const sticky of STICKY_RULES) {
    sticky.pattern.lastIndex = index;
    const match = sticky.pattern.exec(folded);
    const range = match ? sticky.resolve(match, clock, folded) : undefined;
    if (match && range && (!best || match[0].length > best.length)) best = { ...range, length: range.length ?? match[0].length };
  }
  return best;
};

const RULES: readonly Rule[] = [...BASE_RULES, ...RANGE_RULES, ...openRangeRules(periodAt)];

interface Folded {
  readonly text: string;
  /** For each folded code unit, where the character that produced it starts and ends in the question. */
  readonly starts: readonly number[];
  readonly ends: readonly number[];
}

// Typographic apostrophes and ordinal indicators, so "l’année" and "2º trimestre" match like "l'annee", "2o".
const SPELLING: Readonly<Record<string, string>> = { '’': "'", '‘': "'", 'ʼ': "'", '`': "'", '´': "'", 'º': 'o', '°': 'o', 'ª': 'a' };

function stripMarks(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '');
}

/** Lower-case and accent-free, remembering where each character came from so the phrase can be returned as written. */
function fold(question: string): Folded {
  let text = '';
  const starts: number[] = [];
  const ends: number[] = [];
  let position = 0;
  for (const character of question) {
    // Marks are stripped again after lower-casing: "İ".toLowerCase() adds a combining dot.
    const folded = stripMarks(stripMarks(SPELLING[character] ?? character).toLowerCase());
    for (let i = 0; i < folded.length; i++) {
      starts.push(position);
      ends.push(position + character.length);
    }
    text += folded;
    position += character.length;
  }
  return { text, starts, ends };
}

interface Found {
  readonly index: number;
  readonly length: number;
  readonly range: Range;
}

function isoDate(wall: Date): string {
  return wall.toISOString().slice(0, 10);
}

/** Years outside 1–9999 cannot be written as YYYY-MM-DD ("last 9999 years"). */
function isWritable(range: Range): boolean {
  const first = range.start.getUTCFullYear();
  const last = range.end.getUTCFullYear();
  return first >= 1 && last <= 9999;
}

function firstMatch(rule: Rule, folded: string, clock: Clock, from = 0): Found | undefined {
  const pattern = rule.pattern;
  pattern.lastIndex = from;
  for (let match = pattern.exec(folded); match; match = pattern.exec(folded)) {
    const range = rule.resolve(match, clock, folded);
    if (range && isWritable(range)) return { index: match.index, length: range.length ?? match[0].length, range };
    // A rejected match may hide a shorter one starting right after it.
    pattern.lastIndex = match.index + 1;
  }
  return undefined;
}

function clockAt(options: { now: Date; timezone: string }): Clock {
  assertTimeZone(options.timezone);
  const today = startOf('day', wallClock(options.now, options.timezone));
  return { today, tomorrow: addUnits('day', today, 1) };
}

/** The leftmost period from `from` on (on a tie, the longest), refused or not. */
function leftmost(folded: string, clock: Clock, from: number): Found | undefined {
  let best: Found | undefined;
  for (const candidate of RULES) {
    const found = firstMatch(candidate, folded, clock, from);
    if (found && (!best || found.index < best.index || (found.index === best.index && found.length > best.length))) best = found;
  }
  return best;
}

function resolved(range: Range, phrase: string): ResolvedPeriod {
  return { token: range.token, start: isoDate(range.start), end: isoDate(range.end), phrase };
}

/**
 * The first period the question names, resolved in `options.timezone` at `options.now`, or undefined.
 * When several periods appear the leftmost wins (on a tie, the longest), so "2024 vs 2023" is 2024.
 */
export function findPeriod(question: string, options: { now: Date; timezone: string }): ResolvedPeriod | undefined {
  const clock = clockAt(options);
  const folded = fold(question);
  const best = leftmost(folded.text, clock, 0);
  if (!best || best.range.refused) return undefined;
  return resolved(best.range, question.slice(folded.starts[best.index], folded.ends[best.index + best.length - 1]));
}

/** A period of `findPeriods`; `joined` when it is an end of a range the question compares ("from 2023 to 2024"). */
export interface NamedPeriod {
  readonly period: ResolvedPeriod;
  readonly joined: boolean;
}

/**
 * Every period the question names, left to right, the two ends of a compared range each on its own
 * (both with the range's phrase); undefined when the question names a period that cannot be read
 * ("before 2020"), so that no reading leaves it out.
 */
export function findPeriods(question: string, options: { now: Date; timezone: string }): NamedPeriod[] | undefined {
  const clock = clockAt(options);
  const folded = fold(question);
  const periods: NamedPeriod[] = [];
  for (let found = leftmost(folded.text, clock, 0); found; found = leftmost(folded.text, clock, found.index + found.length)) {
    const phrase = question.slice(folded.starts[found.index], folded.ends[found.index + found.length - 1]);
    const { range } = found;
    if (range.ends) periods.push(...range.ends.map((end) => ({ period: resolved(end, phrase), joined: true })));
    else if (range.refused) return undefined;
    else periods.push({ period: resolved(range, phrase), joined: false });
  }
  return periods;
}
