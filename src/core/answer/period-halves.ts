// Halves of a year: "first half of 2019", "H1 2019", "2019 H2", "primer semestre del año pasado",
// "zweites Halbjahr 2019", "the second half". A half named by its year is the whole half (`2019_h1`),
// like "Q2 2024"; one named from now ("of this year", "of last year", or no year at all) keeps that in
// its token (`this_year_h1`, `last_year_h2`), and the current half runs to tomorrow like "this year".
import {
  HALF_LETTER,
  HALF_NOUN,
  HALF_OF,
  HALF_ORDINAL,
  THE_YEAR,
  YEAR_ARTICLE,
  YEAR_NOUNS,
  lastUnitForms,
  thisUnitForms,
} from './period-lexicon.js';
import { NUMBER_START, WORDED_YEAR, WORD_START, YEAR_END, half, refused, rule, type Clock, type Range, type Rule } from './period-rule.js';

/** "first half", "2. Halbjahr", "H1", "1H", "S2", "2. HJ": the half, with its number somewhere in it. */
const WORDED_HALF = `(?:${HALF_ORDINAL})\\s+(?:${HALF_NOUN})`;
const LETTERED_HALF = `(?:${HALF_LETTER})[12]|[12]\\.?\\s?(?:${HALF_LETTER})`;
const HALF_NAME = `(${WORDED_HALF}|${LETTERED_HALF})`;

/** "of 2019", " 2019", "/2019", "del año 2019", "des Jahres 2019". */
const EXPLICIT_YEAR = `(?:\\s*[,/-]\\s*|\\s+(?:(?:${HALF_OF})\\s+)?(?:(?:${YEAR_ARTICLE})?(?:${YEAR_NOUNS})\\s+(?:de\\s+)?)?)${WORDED_YEAR}`;
/** "of this year", "of the year", "de cette année", "dieses Jahres"; "of last year", "de l'an dernier", "des Vorjahres". */
const RELATIVE_YEAR =
  `\\s+(?:(?:${HALF_OF})\\s+)?(?:${YEAR_ARTICLE})?` +
  `(?:(?<thisYear>${thisUnitForms('year')})|(?<lastYear>${lastUnitForms('year')})|(?<theYear>${THE_YEAR}))`;

function halfNumber(name: string): number {
  const digit = /[12]/.exec(name);
  if (digit) return Number(digit[0]);
  return /^(?:first|prim|prem|erst)/.test(name) ? 1 : 2;
}

/** The half of `year` numbered `number`, ending tomorrow while it is under way. */
function relativeHalf(year: number, number: number, token: string, { tomorrow }: Clock): Range {
  const whole = half(year, number);
  const current = whole.start < tomorrow && tomorrow < whole.end;
  return { token, start: whole.start, end: current ? tomorrow : whole.end };
}

function halfOfThisYear(number: number, clock: Clock): Range {
  return relativeHalf(clock.today.getUTCFullYear(), number, `this_year_h${number}`, clock);
}

function halfOfLastYear(number: number, clock: Clock): Range {
  return relativeHalf(clock.today.getUTCFullYear() - 1, number, `last_year_h${number}`, clock);
}

/** A half without a year is the latest one with that number that has begun: this year's or last year's. */
function latestHalf(number: number, clock: Clock): Range {
  const thisYears = half(clock.today.getUTCFullYear(), number);
  return thisYears.start <= clock.today ? halfOfThisYear(number, clock) : halfOfLastYear(number, clock);
}

export const HALF_RULES: readonly Rule[] = [
  // first half of 2019, H1 2019, 1H 2019, segundo semestre de 2019, erstes Halbjahr 2019, 1. HJ 2019
  rule(`${HALF_NAME}${EXPLICIT_YEAR}`, (m) => half(Number(m[2]), halfNumber(m[1]!)), WORD_START, YEAR_END),
  // 2019 H2, 2019-H1, 2019H2, 2019 S1
  rule(`${WORDED_YEAR}\\s*[-/]?\\s*(?:${HALF_LETTER})([12])`, (m) => half(Number(m[1]), Number(m[2])), NUMBER_START),
  // first half of this year / of last year / of the year: worded only, as "S1 last year" may be a size.
  rule(`(${WORDED_HALF})${RELATIVE_YEAR}`, (m, clock) => {
    const number = halfNumber(m[1]!);
    return m.groups!.lastYear !== undefined ? halfOfLastYear(number, clock) : halfOfThisYear(number, clock);
  }),
  // "the second half", "im ersten Halbjahr": worded only, since "H1" alone is as likely a code as a half.
  // "second half of the match" is a half of something else: refused, so no year is read into it.
  rule(`(${HALF_ORDINAL})\\s+(?:${HALF_NOUN})(\\s+(?:${HALF_OF})(?=[\\s']))?`, (m, clock) =>
    m[2] !== undefined ? refused(clock) : latestHalf(halfNumber(m[1]!), clock),
  ),
];
