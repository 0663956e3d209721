// The pieces every period rule is built from: what a rule is, where a period may start and end in the
// folded question, and the calendar units a phrase resolves to (a month, a quarter, a half, a year).
// periods.ts, period-halves.ts and period-ranges.ts build their rules from these.
import { addUnits } from '../semantic/time.js';
import { LEADING_WORDS, NUMERIC_ORDINAL, QUANTITY_AFTER, QUANTITY_BEFORE, QUARTER_ORDINALS } from './period-lexicon.js';

export interface Range {
  readonly token: string;
  readonly start: Date;
  readonly end: Date;
  /** The phrase runs this many folded characters instead of the whole match (a rule reading past its pattern). */
  readonly length?: number;
  /**
   * The words name a period that cannot be read safely ("from June to January 2019", "before 2020"):
   * no period is returned, so the words stay in the question for the planner to account for.
   */
  readonly refused?: boolean;
  /**
   * A range refused because the question compares its two ends ("change from 2023 to 2024", "between
   * Q1 and Q2 2025"): the ends, in the order written, for the comparison reading (compared-periods.ts).
   */
  readonly ends?: readonly [Range, Range];
}

/** Midnight today and tomorrow, as wall times in the workspace time zone. */
export interface Clock {
  readonly today: Date;
  readonly tomorrow: Date;
}

export interface Rule {
  readonly pattern: RegExp;
  resolve(match: RegExpExecArray, clock: Clock, folded: string): Range | undefined;
}

// A period starts at a word boundary; "-" is excluded so that "avant-hier" is not "hier" and
// "mid-2024" is not the year 2024.
export const WORD_START = '(?<![\\p{L}\\p{N}_\\-])';
// Numbers glued to a currency, an identifier or another number ("$2024", "#2024", "15/03/2025") are not periods.
export const NUMBER_START = '(?<![\\p{L}\\p{N}_\\-\u2013\u2014./:$€£#@])';
export const WORD_END = '(?![\\p{L}\\p{N}_])';
// A year ends the number: not "2024-ABC", "2024.5", "2024%", "2024-03-15", "2024–2025" (a season).
export const YEAR_END = '(?![\\p{L}\\p{N}_%]|[-\u2013\u2014/.,:]\\p{N}|[-/]\\p{L})';
/** A bare number read as a year: 1990–2100 (see docs/answers.md, "Periods"). */
export const BARE_YEAR = '(199\\d|20\\d\\d|2100)';
/** A year next to a month or quarter word is unambiguous, so any four-digit year from 1000 is taken. */
export const WORDED_YEAR = '([12]\\d{3})';
export const OF = '(?:of|de|del|do|von)';
/** Between a month or quarter and its year: "March 2025", "March, 2025", "marzo de 2025", "Q2/2024". */
export const SEPARATOR = `(?:\\s*[,/-]\\s*|\\s+(?:${OF}\\s+)?)`;

export function rule(core: string, resolve: Rule['resolve'], start = WORD_START, end = WORD_END): Rule {
  return { pattern: new RegExp(`${start}${LEADING_WORDS}(?:${core})${end}`, 'gu'), resolve };
}

export function alternation(words: Iterable<string>): string {
  // Longest first, so that "mars" is not read as "mar" + "s".
  return [...words].sort((a, b) => b.length - a.length).join('|');
}

export function month(year: number, monthNumber: number): Range {
  const start = new Date(Date.UTC(2000, monthNumber - 1, 1));
  start.setUTCFullYear(year); // Date.UTC would read years below 100 as 19xx
  return { token: `${year}_${String(monthNumber).padStart(2, '0')}`, start, end: addUnits('month', start, 1) };
}

export function quarter(year: number, quarterNumber: number): Range {
  const { start } = month(year, quarterNumber * 3 - 2);
  return { token: `${year}_q${quarterNumber}`, start, end: addUnits('quarter', start, 1) };
}

/** January–June or July–December of `year`. */
/** An ordinal before "quarter": second, 2nd, 2º, zweites, 2., deuxième. */
export const QUARTER_ORDINAL = `${alternation(Object.keys(QUARTER_ORDINALS))}|${NUMERIC_ORDINAL}`;

export function quarterFromOrdinal(ordinal: string): number | undefined {
  const digit = /^[1-4]/.exec(ordinal);
  return digit ? Number(digit[0]) : QUARTER_ORDINALS[ordinal];
}

export function half(year: number, halfNumber: number): Range {
  const { start } = month(year, halfNumber * 6 - 5);
  return { token: `${year}_h${halfNumber}`, start, end: addUnits('month', start, 6) };
}

export function year(yearNumber: number): Range {
  const { start } = month(yearNumber, 1);
  return { token: String(yearNumber), start, end: addUnits('year', start, 1) };
}

/** Two ends the question compares rather than one range to sum (see `Range.ends`); reversed ends are refused. */
export function comparedEnds(first: Range, last: Range, clock: Clock): Range {
  return first.start < last.start ? { ...refused(clock), ends: [first, last] } : refused(clock);
}

/** A match that names words this grammar will not turn into dates (see `Range.refused`). */
export function refused(clock: Clock, length?: number): Range {
  return { token: '', start: clock.today, end: clock.tomorrow, refused: true, ...(length !== undefined ? { length } : {}) };
}

const QUANTITY_BEFORE_TEST = new RegExp(`(?:^|[^\\p{L}\\p{N}])(?:${QUANTITY_BEFORE})\\s*$`, 'u');
const QUANTITY_AFTER_TEST = new RegExp(`^\\s*(?:${QUANTITY_AFTER})(?![\\p{L}\\p{N}])`, 'u');

/** The words just before `index` make the number there a quantity or an identifier ("top 2000", "order 2024"). */
export function isQuantityBefore(folded: string, index: number): boolean {
  return QUANTITY_BEFORE_TEST.test(folded.slice(Math.max(0, index - 40), index));
}

/** The words from `index` make the number before it an amount ("2000 units", "2050 €"). */
export function isQuantityAfter(folded: string, index: number): boolean {
  return QUANTITY_AFTER_TEST.test(folded.slice(index));
}
