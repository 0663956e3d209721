// Ranges of whole months, quarters or years ("from January to June 2019", "Q1–Q3 2019", "between 2017
// and 2019", "de enero a junio de 2019", "von März 2018 bis Februar 2019") and open ranges that run to
// today ("since March 2019", "desde 2019", "seit Q2 2024"). A range's token joins the tokens of its two
// ends (`2019_01..2019_06`); an open range prefixes its start's token (`since_2019_03`). Words that
// bound a period on one side only ("before 2020") and reversed ranges are refused rather than read as
// one of their units, which would answer for a period nobody asked about.
import {
  COMPARE_COMPOUNDS,
  COMPARE_WORDS,
  MONTH_NAMES,
  NOW_WORDS,
  ONWARDS,
  ONE_SIDED,
  HALF_LETTER,
  LAST_BEFORE,
  QUARTER_LETTER,
  QUARTER_NOUN,
  RANGE_AND,
  RANGE_BETWEEN,
  RANGE_DASH,
  RANGE_FROM,
  RANGE_TO,
  SINCE,
} from './period-lexicon.js';
import {
  BARE_YEAR,
  NUMBER_START,
  QUARTER_ORDINAL,
  SEPARATOR,
  WORDED_YEAR,
  WORD_START,
  YEAR_END,
  alternation,
  isQuantityAfter,
  isQuantityBefore,
  half,
  month,
  quarter,
  quarterFromOrdinal,
  comparedEnds,
  refused,
  rule,
  year,
  type Clock,
  type Range,
  type Rule,
} from './period-rule.js';

/** One end of a range: its month or quarter number, and its year when written. */
interface End {
  readonly number: number;
  readonly year: number | undefined;
}

type Unit = (year: number, number: number) => Range;

const COMPARING = new RegExp(`(?:^|[^\\p{L}])(?:${COMPARE_WORDS})(?![\\p{L}])|(?:${COMPARE_COMPOUNDS})`, 'u');
/** Month words that are also common words (Portuguese "set", "out", "dez", "ago"): without a year they are not read. */
const AMBIGUOUS_MONTHS = new Set(['set', 'out', 'dez', 'ago']);

/**
 * "compare 2023 to 2024" and "growth from 2018 to 2019" ask for two periods side by side or the change
 * between them: one figure summed over the whole range would answer another question.
 */
function isComparison(folded: string): boolean {
  return COMPARING.test(folded);
}

/** The two ends as one range; a reversed range is refused, a range of one unit is that unit. */
function span(first: Range, last: Range, clock: Clock): Range {
  if (first.start > last.start) return refused(clock);
  if (first.token === last.token) return first;
  return { token: `${first.token}..${last.token}`, start: first.start, end: last.end };
}

/**
 * Years for the ends that lack one. The year written at the end also covers the start ("January to June
 * 2019"); one written at the start only carries on, into the next year when the end comes earlier in the
 * calendar ("November 2018 to February"); with none, the range is the latest one that has begun.
 */
function resolveEnds(first: End, last: End, unit: Unit, clock: Clock): Range {
  const [start, end] = endsOf(first, last, unit, clock);
  return span(start, end, clock);
}

/** Each end as its own unit, years resolved as `resolveEnds` says. */
function endsOf(first: End, last: End, unit: Unit, clock: Clock): [Range, Range] {
  let startYear: number;
  let endYear: number;
  if (last.year !== undefined) {
    endYear = last.year;
    startYear = first.year ?? last.year;
  } else {
    startYear = first.year ?? clock.today.getUTCFullYear();
    if (first.year === undefined && unit(startYear, first.number).start > clock.today) startYear -= 1;
    endYear = last.number >= first.number ? startYear : startYear + 1;
  }
  return [unit(startYear, first.number), unit(endYear, last.number)];
}

const optionalYear = (value: string | undefined): number | undefined => (value === undefined ? undefined : Number(value));

// "between March and May 15" ends on a day, which is not a period: no range is read there.
const RANGE_END = `${YEAR_END}(?!\\s*\\d)`;

/** Both ways to join two ends, with the ends' groups in the same order: from A to B, A–B; between A and B. */
function rangeRules(end: string, resolve: Rule['resolve'], start = WORD_START): Rule[] {
  return [
    rule(`(?:(?:${RANGE_FROM})\\s+)?${end}(?:\\s*${RANGE_DASH}\\s*|\\s+(?:${RANGE_TO})\\s+)${end}`, resolve, start, RANGE_END),
    rule(`(?:${RANGE_BETWEEN})\\s+${end}\\s+(?:${RANGE_AND})\\s+${end}`, resolve, start, RANGE_END),
  ];
}

const MONTH_WORDS = alternation(Object.keys(MONTH_NAMES));
const MONTH_END = `(${MONTH_WORDS})\\.?(?:${SEPARATOR}${WORDED_YEAR}(?!\\p{N}))?`;
const QUARTER_END = `${QUARTER_LETTER}([1-4])(?:${SEPARATOR}${WORDED_YEAR}(?!\\p{N}))?`;
const HALF_END = `(?:${HALF_LETTER})([12])(?:${SEPARATOR}${WORDED_YEAR}(?!\\p{N}))?`;

/**
 * `needsYear`: ends written as a letter and a digit ("T2 to T3", "from S1 to S2") are as likely codes
 * (terminals, sizes, zones) as quarters or halves, so without a year they are not read.
 */
function unitRange(unit: Unit, number: (text: string) => number, needsYear = false) {
  return (m: RegExpExecArray, clock: Clock, folded: string): Range | undefined => {
    const first = { number: number(m[1]!), year: optionalYear(m[2]) };
    const last = { number: number(m[3]!), year: optionalYear(m[4]) };
    if (first.year === undefined && last.year === undefined && (needsYear || AMBIGUOUS_MONTHS.has(m[1]!) || AMBIGUOUS_MONTHS.has(m[3]!))) return undefined;
    if (isComparison(folded)) return comparedEnds(...endsOf(first, last, unit, clock), clock);
    return resolveEnds(first, last, unit, clock);
  };
}

/** 2017 to 2019, between 2017 and 2019, 2017–2019: but not an amount, and not "the 2024-2025 season". */
function yearRange(m: RegExpExecArray, clock: Clock, folded: string): Range | undefined {
  const firstDigit = m.index + m[0].search(/\d/u);
  if (isQuantityBefore(folded, firstDigit) || isQuantityAfter(folded, m.index + m[0].length)) return refused(clock);
  const first = Number(m[1]);
  const last = Number(m[2]);
  // Two consecutive years joined by a dash name a season or a fiscal year as often as two calendar years.
  const dashed = new RegExp(`^\\d{4}\\s*${RANGE_DASH}`, 'u').test(folded.slice(firstDigit));
  if (dashed && last === first + 1) return undefined;
  if (isComparison(folded)) return comparedEnds(year(first), year(last), clock);
  return span(year(first), year(last), clock);
}

const DAY = '(?:[12]\\d|3[01]|0?[1-9])';

/**
 * A day with its month and year ("May 3, 2019", "3 May 2019", "3 de mayo de 2019", "le 3 mai 2019",
 * "3. März 2019"): days are not periods here, and reading the month or the year around it would answer
 * for a whole month or year. Refused.
 */
const DAY_RULES: readonly Rule[] = [
  rule(`(?:${MONTH_WORDS})\\.?\\s+${DAY}(?:st|nd|rd|th)?,?\\s+${WORDED_YEAR}`, (_m, clock) => refused(clock), WORD_START, YEAR_END),
  rule(
    `${DAY}(?:st|nd|rd|th|er|o|\\.)?\\s+(?:(?:de|of)\\s+)?(?:${MONTH_WORDS})\\.?,?\\s+(?:de\\s+)?${WORDED_YEAR}`,
    (_m, clock) => refused(clock),
    NUMBER_START,
    YEAR_END,
  ),
];

const ARTICLE = '(?:the|el|le|o|dem|zum)\\s+';
// A bare digit is not an ordinal here: "2 to 3 quarters" counts quarters.
const ORDINAL = `(?:${QUARTER_ORDINAL})(?<!(?:^|[^\\p{L}\\p{N}])\\d)`;
const QUARTER_NOUNS = `(?:${QUARTER_NOUN})(?:s|e|en)?`;
const ORDINAL_QUARTER_YEAR = `(?:${SEPARATOR}${WORDED_YEAR})?`;

/** From the first to the third quarter of 2019, del primer al tercer trimestre, vom ersten bis zum dritten Quartal. */
function ordinalQuarterRange(m: RegExpExecArray, clock: Clock, folded: string): Range | undefined {
  const first = quarterFromOrdinal(m[1]!);
  const last = quarterFromOrdinal(m[2]!);
  if (first === undefined || last === undefined) return undefined;
  const ends = endsOf({ number: first, year: undefined }, { number: last, year: optionalYear(m[3]) }, quarter, clock);
  if (isComparison(folded)) return comparedEnds(...ends, clock);
  return span(...ends, clock);
}

const ORDINAL_QUARTER_RULES: readonly Rule[] = [
  rule(
    `(?:(?:${RANGE_FROM})\\s+)?(?:${ARTICLE})?(${ORDINAL})(?:\\s+${QUARTER_NOUNS})?` +
      `(?:\\s*${RANGE_DASH}\\s*|\\s+(?:${RANGE_TO})\\s+)(?:${ARTICLE})?(${ORDINAL})\\s+${QUARTER_NOUNS}${ORDINAL_QUARTER_YEAR}`,
    ordinalQuarterRange,
    WORD_START,
    YEAR_END,
  ),
  rule(
    `(?:${RANGE_BETWEEN})\\s+(?:${ARTICLE})?(${ORDINAL})(?:\\s+${QUARTER_NOUNS})?\\s+(?:${RANGE_AND})\\s+` +
      `(?:${ARTICLE})?(${ORDINAL})\\s+${QUARTER_NOUNS}${ORDINAL_QUARTER_YEAR}`,
    ordinalQuarterRange,
    WORD_START,
    YEAR_END,
  ),
];

export const RANGE_RULES: readonly Rule[] = [
  ...DAY_RULES,
  ...ORDINAL_QUARTER_RULES,
  ...rangeRules(MONTH_END, unitRange(month, (text) => MONTH_NAMES[text]!)),
  ...rangeRules(QUARTER_END, unitRange(quarter, Number, true)),
  ...rangeRules(HALF_END, unitRange(half, Number, true)),
  ...rangeRules(BARE_YEAR, yearRange, NUMBER_START),
];

/** The period a base rule reads starting exactly at `index`, with the length of its words. */
export type PeriodAt = (folded: string, index: number, clock: Clock) => (Range & { readonly length: number }) | undefined;

/** Periods an open range may start from: whole units named by their number, and the complete ones before now. */
const OPEN_START = /^(?:\d{4}(?:_\d\d|_[qh][1-4])?|yesterday|last_(?:week|month|quarter|year)|last_year_h[12])$/u;
const NOW_TAIL = new RegExp(`\\s+(?:(?:${RANGE_TO})\\s+(?:${NOW_WORDS})|${ONWARDS})(?![\\p{L}\\p{N}])`, 'uy');
const NOW_ANYWHERE = new RegExp(`(?:${NOW_WORDS}|${ONWARDS})(?![\\p{L}\\p{N}])`, 'u');

const MONTH_ALONE = new RegExp(`(?:(${LAST_BEFORE})\\s+)?(${MONTH_WORDS})(?![\\p{L}\\p{N}])(?!\\.?\\s*\\d)`, 'uy');

/**
 * "since March", "since last March": the latest March that has begun, or with "last" the latest one
 * before this month. Only after "since", where a month alone can only be a period.
 */
function monthAt(folded: string, index: number, clock: Clock): (Range & { readonly length: number }) | undefined {
  MONTH_ALONE.lastIndex = index;
  const match = MONTH_ALONE.exec(folded);
  if (!match || AMBIGUOUS_MONTHS.has(match[2]!)) return undefined;
  const thisYear = clock.today.getUTCFullYear();
  const number = MONTH_NAMES[match[2]!]!;
  const latest = month(thisYear, number);
  const begun = match[1] === undefined ? latest.start <= clock.today : latest.end <= startOfMonth(clock.today);
  return { ...(begun ? latest : month(thisYear - 1, number)), length: match[0].length };
}

function startOfMonth(day: Date): Date {
  return month(day.getUTCFullYear(), day.getUTCMonth() + 1).start;
}

/**
 * "since March 2019", "from March 2019 to today": from the start of the named period to tomorrow, so
 * today is included like the to-date forms. "before 2020", "until March 2019": refused.
 */
export function openRangeRules(periodAt: PeriodAt): Rule[] {
  const since = rule(`(?:(${SINCE})|(?:${RANGE_FROM}))\\s+`, (m, clock, folded) => {
    // "from" opens an open range only before "to today": most questions say neither, so look no further.
    if (m[1] === undefined && !NOW_ANYWHERE.test(folded.slice(m.index))) return undefined;
    const innerIndex = m.index + m[0].length;
    const inner = periodAt(folded, innerIndex, clock) ?? (m[1] !== undefined ? monthAt(folded, innerIndex, clock) : undefined);
    if (!inner) return undefined;
    let end = innerIndex + inner.length;
    NOW_TAIL.lastIndex = end;
    const tail = NOW_TAIL.exec(folded);
    if (tail) end += tail[0].length;
    else if (m[1] === undefined) return undefined; // "from March 2019" alone is March 2019; "onwards" opens it
    if (inner.refused || inner.start >= clock.tomorrow) return refused(clock, end - m.index);
    // "since this month", "since the last 7 days": the period itself already runs to today or near it.
    if (!OPEN_START.test(inner.token)) return undefined;
    return { token: `since_${inner.token}`, start: inner.start, end: clock.tomorrow, length: end - m.index };
  }, WORD_START, '');
  const oneSided = rule(`(?:${ONE_SIDED})\\s+`, (m, clock, folded) => {
    const inner = periodAt(folded, m.index + m[0].length, clock);
    return inner ? refused(clock, m[0].length + inner.length) : undefined;
  }, WORD_START, '');
  return [since, oneSided];
}
