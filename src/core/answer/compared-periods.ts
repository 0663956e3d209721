// Two periods set side by side: "how many more trips in 2024 than in 2023", "change in revenue from Q1
// to Q2 2025", "trips this year vs last year", "growth of senders last month", "May 2025 compared to
// the same month last year". Read here, on the server, before planning: both periods are resolved like
// any period (periods.ts), and the planner is handed the question without the periods and without the
// words that ask for the comparison, so it plans the metric as for one period. Anything short of a
// clear reading (one period and "than", three periods, overlapping periods) is no comparison: the
// question then goes the ordinary way, where the comparison words are unaccounted for and declined.
// English only: other languages reach this through the analytical lexicon's English cue words.
import { addUnits } from '../semantic/time.js';
import { findPeriods, type NamedPeriod } from './periods.js';
import { contentStems } from './text.js';
import type { ComparedPeriods, ResolvedPeriod } from './plan.js';

export interface ComparisonReading extends ComparedPeriods {
  /** The question without both periods and the comparison words, for the planner. */
  readonly text: string;
}

/** "more … than": the comparative and its "than" are both needed. */
const MORE = /\b(?:more|fewer|less)\b/giu;
const THAN = /\bthan\b/giu;
const MORE_ALONE = /\b(?:more|fewer|less)\b(?!\s+than\b)/giu;
/** Words that set a second period beside the first. */
const VERSUS = /\b(?:(?:as\s+)?compared\s+(?:to|with)|in\s+comparison\s+(?:to|with)|versus|vs\.?|against|relative\s+to)(?=\s|$)/giu;
/**
 * Words that ask for the change of one metric over time: with one period, against the period before.
 * A noun with its "in"/"of" ("change in revenue", "growth of senders"), or a word followed by a period
 * or its preposition ("how did churn change in May", "revenue grew last quarter"): a verb with an
 * object of its own ("employees who changed teams", "prices dropped by the shop") is the event asked
 * about, not a comparison; so is one the rows record (OWN_EVENT).
 */
const CHANGE_NOUN = '(?:change|growth|increase|decrease|rise|drop|difference|decline)';
const CHANGE_VERB =
  '(?:changed?|grow|grew|grown|increased?|decreased?|rose|risen|fell|fallen|dropped|declined|(?:go|gone|went)\\s+up\\s+or\\s+down|(?:go|gone|went)\\s+(?:up|down))';
const BEFORE_A_PERIOD = '(?=\\s*(?:$|[?.!,;:]|\\d|(?:in|from|between|during|over|since|compared|versus|vs|against|last|this|year|the\\s+(?:previous|prior|same))\\b))';
// "got an increase in 2024", "had a change of role" and "employees whose pay increased in 2024" are
// events the rows record: a noun after an article of its own, or a verb in a clause about the rows.
const OWN_EVENT = '(?<!\\b(?:a|an|any|no|one|each|every|their|his|her|its|our|your)\\s+)(?<!\\b(?:who|whose|that|which|where)\\b[^,.;?]*)';
const CHANGE = new RegExp(`\\b${OWN_EVENT}(?:(?:the\\s+)?${CHANGE_NOUN}\\s+(?:in|of)\\b|(?:${CHANGE_NOUN}|${CHANGE_VERB})${BEFORE_A_PERIOD})`, 'giu');
/** Year over year: against the same period a year before. */
const YEAR_OVER_YEAR = /\b(?:year[\s-]+(?:over|on)[\s-]+year|yoy)\b/giu;
const UNIT = '(?:day|week|month|quarter|half|year|period)';
/** "the same month last year", "the same quarter a year before": the current period, a year earlier. */
const SAME_A_YEAR_BEFORE = new RegExp(
  `\\b(?:the\\s+|that\\s+)?same\\s+(?:${UNIT}|days|weeks|months|time)\\s+(?:of\\s+)?(?:last\\s+year|(?:a|one|the)\\s+year\\s+(?:before|earlier|ago)|the\\s+(?:previous|prior)\\s+year)\\b`,
  'giu',
);
/** "the quarter before", "the previous month": the period of the same length just before. */
const PERIOD_BEFORE = new RegExp(`\\b(?:the\\s+)?(?:(?:previous|prior|preceding)\\s+${UNIT}|${UNIT}\\s+before)\\b`, 'giu');

type Relative = 'year_before' | 'period_before';

export interface ComparisonOptions {
  readonly now: Date;
  readonly timezone: string;
  /**
   * Whether a stem is a word of the catalog (a metric's or dimension's name or synonym, a value of the
   * data): a cue word the model or the data uses ("Salary increase", "drop-off station", a hiring
   * reason 'growth') names that, not a comparison.
   */
  readonly isCatalogWord?: (stem: string) => boolean;
}

/** The words that ask for a comparison, as stems: a period's words ("month", "year") are not among them. */
const CUE_STEMS = new Set(contentStems('more fewer less than compared comparison versus against relative change changed growth grow grew increase decrease rise rose drop dropped fell difference up down went gone'));

/** Where `pattern` matches in `text`, leaving out matches whose cue word is a word of the catalog. */
function cueSpans(pattern: RegExp, text: string, isCatalogWord: (stem: string) => boolean): Array<[number, number]> {
  const catalogWord = (stem: string) => CUE_STEMS.has(stem) && isCatalogWord(stem);
  return [...text.matchAll(pattern)].filter((found) => !contentStems(found[0]).some(catalogWord)).map((found) => [found.index, found[0].length]);
}

function blanked(text: string, spans: ReadonlyArray<[number, number]>): string {
  let out = text;
  for (const [index, length] of spans) out = out.slice(0, index) + ' '.repeat(length) + out.slice(index + length);
  return out;
}

export function readComparison(question: string, options: ComparisonOptions): ComparisonReading | undefined {
  const isCatalogWord = options.isCatalogWord ?? (() => false);
  const spans = (pattern: RegExp, text = question) => cueSpans(pattern, text, isCatalogWord);
  const than = spans(MORE).length > 0 && spans(THAN).length > 0;
  const versus = spans(VERSUS).length > 0;
  const change = spans(CHANGE).length > 0;
  const yearOverYear = spans(YEAR_OVER_YEAR).length > 0;
  if (!than && !versus && !change && !yearOverYear) return undefined;

  const sameYearBefore = cueSpans(SAME_A_YEAR_BEFORE, question, () => false);
  const withoutSame = blanked(question, sameYearBefore);
  const periodBefore = cueSpans(PERIOD_BEFORE, withoutSame, () => false);
  const relative: Relative | undefined = sameYearBefore.length > 0 ? 'year_before' : periodBefore.length > 0 ? 'period_before' : undefined;
  // Positions are kept (words blanked, not removed) so the periods' phrases stay where they were.
  const withoutRelative = blanked(withoutSame, periodBefore);
  const named = findPeriods(withoutRelative, options);
  if (!named) return undefined;
  // "more … than" compares periods only when "than" leads into one ("than in 2023"), not "more than 3".
  const thanPeriod = than && named.length === 2 && thanLeadsInto(withoutRelative, named[1]!.period.phrase, isCatalogWord);
  const pair = pairOf(named, { than: thanPeriod, versus, change, yearOverYear, relative });
  if (!pair || overlap(pair.current, pair.comparison)) return undefined;

  let text = withoutRelative;
  for (const { period } of named) text = text.replace(period.phrase, ' '.repeat(period.phrase.length));
  // "how many more trips … compared to 2023": the comparative asks for the change too, unless it
  // compares with something of its own ("more than 3 orders").
  for (const cue of [YEAR_OVER_YEAR, VERSUS, CHANGE, ...(thanPeriod ? [MORE, THAN] : [MORE_ALONE])]) text = blanked(text, spans(cue, text));
  return { ...pair, text: text.replace(/\s+/gu, ' ').trim() };
}

function thanLeadsInto(text: string, phrase: string, isCatalogWord: (stem: string) => boolean): boolean {
  const at = text.indexOf(phrase);
  return cueSpans(THAN, text, isCatalogWord).some(([index, length]) => index + length <= at && /^\s*(?:(?:in|during|for|on|at|over)\s+)?$/iu.test(text.slice(index + length, at)));
}

interface Cues {
  readonly than: boolean;
  readonly versus: boolean;
  readonly change: boolean;
  readonly yearOverYear: boolean;
  readonly relative: Relative | undefined;
}

function pairOf(named: readonly NamedPeriod[], cues: Cues): ComparedPeriods | undefined {
  // One period and the one before it, or a year before it.
  if (named.length === 1) {
    const current = named[0]!.period;
    if (cues.relative === 'year_before' || (cues.yearOverYear && !cues.relative)) return { current, comparison: shifted(current, 12, 'year_before') };
    if (cues.relative === 'period_before' || (cues.change && !cues.than && !cues.versus)) {
      return { current, comparison: periodBefore(current) };
    }
    return undefined;
  }
  if (named.length !== 2 || cues.relative || !(cues.than || cues.versus || cues.change)) return undefined;
  const [first, second] = named as [NamedPeriod, NamedPeriod];
  // "from Q1 to Q2", "between 2023 and 2024": the later end is the current one. Otherwise the period
  // named first is what the question is about ("2024 than 2023", "this year vs last year").
  if (first.joined && second.joined) return { current: second.period, comparison: first.period };
  return { current: first.period, comparison: sameDaysWhileUnderWay(first.period, second.period) };
}

/** This year or this month, still under way: set beside the same days of the earlier period, not all of it. */
function sameDaysWhileUnderWay(current: ResolvedPeriod, comparison: ResolvedPeriod): ResolvedPeriod {
  if (!underWay(current)) return comparison;
  const months = monthsBetween(comparison.start, current.start);
  if (months === undefined || months <= 0 || current.end <= current.start) return comparison;
  const end = isoShift(current.end, -months);
  return end < comparison.end ? { token: `same_days_of_${comparison.token}`, start: comparison.start, end, phrase: comparison.phrase } : comparison;
}

const underWay = (period: ResolvedPeriod): boolean => /^(?:this_|(?:week|month|quarter|year)_to_date$)/u.test(period.token);

/**
 * The period of the same length just before: by whole months when the period is made of them (a year
 * to date counts as a year, so it meets the same days of last year), else by days ("the last 30 days").
 */
function periodBefore(current: ResolvedPeriod): ResolvedPeriod {
  const unit = /^(?:this_|last_)?(month|quarter|year)(?:_to_date)?$/u.exec(current.token)?.[1];
  const months = unit ? { month: 1, quarter: 3, year: 12 }[unit as 'month' | 'quarter' | 'year'] : monthsBetween(current.start, current.end);
  if (months !== undefined) return shifted(current, months, 'period_before');
  const days = Math.round((Date.parse(current.end) - Date.parse(current.start)) / 86_400_000);
  const start = isoDays(current.start, -days);
  return { token: `the_${days}_days_before`, start, end: current.start, phrase: '' };
}

function isoDays(date: string, days: number): string {
  return addUnits('day', new Date(`${date}T00:00:00Z`), days).toISOString().slice(0, 10);
}

/** Whole months from `from` to `to`, both first days of a month; undefined otherwise. */
function monthsBetween(from: string, to: string): number | undefined {
  if (!from.endsWith('-01') || !to.endsWith('-01')) return undefined;
  const [fromYear, fromMonth] = from.split('-').map(Number) as [number, number];
  const [toYear, toMonth] = to.split('-').map(Number) as [number, number];
  return (toYear - fromYear) * 12 + (toMonth - fromMonth);
}

function isoShift(date: string, months: number): string {
  return addUnits('month', new Date(`${date}T00:00:00Z`), months).toISOString().slice(0, 10);
}

/** The period `months` earlier, named as a whole unit when it is one ("2024", "2025_q1", "2025_04"). */
function shifted(current: ResolvedPeriod, months: number, relative: Relative): ResolvedPeriod {
  const start = isoShift(current.start, -months);
  const end = isoShift(current.end, -months);
  return { token: unitToken(start, end) ?? (relative === 'year_before' ? 'same_days_a_year_before' : 'same_days_the_period_before'), start, end, phrase: '' };
}

/** A year, half, quarter or month written as its token, when [start, end) is exactly one. */
function unitToken(start: string, end: string): string | undefined {
  const months = monthsBetween(start, end);
  const [year, month] = start.split('-') as [string, string];
  const first = Number(month);
  if (months === 12 && first === 1) return year;
  if (months === 6 && (first === 1 || first === 7)) return `${year}_h${first === 1 ? 1 : 2}`;
  if (months === 3 && first % 3 === 1) return `${year}_q${(first + 2) / 3}`;
  if (months === 1) return `${year}_${month}`;
  return undefined;
}

const overlap = (a: ResolvedPeriod, b: ResolvedPeriod): boolean => a.start < b.end && b.start < a.end;
